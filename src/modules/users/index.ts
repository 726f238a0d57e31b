import { nodeDef } from '../../core/graphql/node';
import { defineModule } from '../../core/module/app-module';
import { avatarDownload } from '../avatars';
import { User } from './user.entity';
import { joinUser } from './user-sql';
import { UserResolver } from './user.resolver';
import { userRoutes, userCustomAttributeRoutes } from './user.rest';
import { UserEmailsFieldResolver, UserEmailsResolver, userEmailLoaders } from './user-emails.resolver';
import { userEmailRoutes } from './user-emails.rest';
import { Identity } from './identity.entity';
import { identityLoaders } from './identity.service';
import { userLoaders } from './user.loaders';
import { userCustomAttributeEndpoints } from './user-custom-attributes';
import { UserActivityResolver } from './user-activity.resolver';
import { UserFollowsResolver, userFollowLoaders } from './user-follows.resolver';
import { UserStatusResolver } from './user-status.resolver';
import { UserPreferencesResolver } from './user-preferences.resolver';
import { UserAssociationsResolver } from './user-associations.resolver';
import { UserAvatarLookupResolver } from './user-avatar-lookup.resolver';
import { Migration20261212100000UserPreferences } from './migrations/Migration20261212100000_user_preferences';
import { Migration20261229090000UserPreferencesProjectsSort } from './migrations/Migration20261229090000_user_preferences_projects_sort';
import { userStatusLoaders } from './user-status';
import { Migration20261211090100UserStatuses } from './migrations/Migration20261211090100_user_statuses';
import { Migration20261211090000UserFollows } from './migrations/Migration20261211090000_user_follows';
import { Migration20261203100100Identities } from './migrations/Migration20261203100100_identities';
import { Migration20261203140200UsersEmailTrgm } from './migrations/Migration20261203140200_users_email_trgm';
import { Migration20261203160000UsersCreatedAt } from './migrations/Migration20261203160000_users_created_at';
import { Migration20261204090100UsersLastActivityOn } from './migrations/Migration20261204090100_users_last_activity_on';

declare module '../../core/context/request-ctx' {
  /** ctx.user is a full User record on both surfaces. */
  interface CurrentUser extends User {}
}

export const usersModule = defineModule({
  name: 'users',
  nodes: [
    nodeDef({ type: 'User', gidClass: 'User', load: (ctx, ids) => ctx.loaders.user.loadPresent(ids.map(Number)) }),
  ],
  entities: [User, Identity],
  resolvers: [
    UserResolver,
    UserActivityResolver,
    UserFollowsResolver,
    UserStatusResolver,
    UserPreferencesResolver,
    UserAssociationsResolver,
    UserAvatarLookupResolver,
    UserEmailsResolver,
    UserEmailsFieldResolver,
    ...userCustomAttributeEndpoints.resolvers,
  ],
  routes: [...userRoutes, ...userEmailRoutes, ...userCustomAttributeRoutes],
  // GitLab's user avatar URL: public (UploadsController, `when User: true`).
  downloads: [avatarDownload('user', (owner) => joinUser(owner, 'o'))],
  loaders: [
    userFollowLoaders,
    userEmailLoaders,
    identityLoaders,
    userLoaders,
    userStatusLoaders,
    userCustomAttributeEndpoints.loaders,
  ],
  migrations: [
    { name: 'Migration20261203100100_identities', class: Migration20261203100100Identities },
    { name: 'Migration20261203140200_users_email_trgm', class: Migration20261203140200UsersEmailTrgm },
    { name: 'Migration20261203160000_users_created_at', class: Migration20261203160000UsersCreatedAt },
    { name: 'Migration20261204090100_users_last_activity_on', class: Migration20261204090100UsersLastActivityOn },
    { name: 'Migration20261211090000_user_follows', class: Migration20261211090000UserFollows },
    { name: 'Migration20261211090100_user_statuses', class: Migration20261211090100UserStatuses },
    { name: 'Migration20261212100000_user_preferences', class: Migration20261212100000UserPreferences },
    {
      name: 'Migration20261229090000_user_preferences_projects_sort',
      class: Migration20261229090000UserPreferencesProjectsSort,
    },
  ],
});

// The door: what other modules may use (docs/architecture.md, "Modules").
export { User } from './user.entity';
export { activityWritesSettled, forgetActivityWrites, noteActivity } from './user-activity';
export { userWebUrl } from './user-web-url';
export { USER_BASIC_FIELDS, UserBasicWire, UserPublicWire, UserWire } from './user.presenter';
export { insertWithNamespace, userService } from './user.service';
export { AUTOCOMPLETE_USERS_LIMIT, autocompleteUsersByKey, usersAmongQuery } from './user-search';
export { anyUser, findUser, findUserByIdOrUsername, joinUser, newUser, userFromRow, usernameOf } from './user-sql';
export { UserIdArg, UserPage, UserType } from './user.type';
