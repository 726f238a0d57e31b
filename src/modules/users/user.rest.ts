import type { RequestCtx } from '../../core/context/request-ctx';
import { UnauthenticatedError } from '../../core/errors/domain-errors';
import { defineRoutes, type ParamException } from '../../rest/route';
import { PASSWORD_OR_RESET } from './user.service';
import { IDENTITY_PAIR } from './identity.service';
import {
  AvatarWire,
  UserActivityWire,
  UserAssociationsCountWire,
  UserBasicWire,
  UserPreferencesWire,
  UserPublicWire,
  UserStatusWire,
  UserWire,
  UserWithAdminWire,
} from './user.presenter';
import { policy } from '../access';
import { userCustomAttributeEndpoints } from './user-custom-attributes';

const forAdmin = (ctx: RequestCtx) => policy.isAdmin(ctx.user);

const USER_ID: Record<string, ParamException> = { id: { notFound: 'User' } };
const tag = 'users';
const requireCaller = async (ctx: RequestCtx): Promise<void> => {
  if (!ctx.user) throw new UnauthenticatedError();
};
/** provider + extern_uid name one identity: both or neither (Grape's all_or_none_of). */

export const userRoutes = defineRoutes([
  {
    // REST keeps GitLab's 401 for an anonymous GET /user (GraphQL answers null).
    method: 'GET',
    path: '/user',
    field: 'Query.currentUser',
    filter: requireCaller,
    gate: requireCaller,
    shape: (_p, ctx) => (forAdmin(ctx) ? UserWithAdminWire : UserPublicWire),
    shapes: [UserPublicWire, UserWithAdminWire],
    summary: 'The authenticated user',
    tag,
  },
  {
    method: 'GET',
    path: '/users',
    field: 'Query.users',
    paginated: true,
    shape: (_p, ctx) => (forAdmin(ctx) ? UserWithAdminWire : UserBasicWire),
    shapes: [UserBasicWire, UserWithAdminWire],
    rules: [IDENTITY_PAIR],
    summary: 'List users',
    tag,
  },
  {
    method: 'GET',
    path: '/users/:id',
    field: 'Query.user',
    params: { ...USER_ID, username: { omit: true } },
    shape: (_p, ctx) => (forAdmin(ctx) ? UserWithAdminWire : UserWire),
    shapes: [UserWire, UserWithAdminWire],
    summary: 'Get a user',
    tag,
  },
  {
    method: 'POST',
    path: '/users',
    field: 'Mutation.createUser',
    // Grape's declaration order (email, password, name, username) is the order of its error messages.
    params: {
      email: { required: true },
      password: { required: false },
      reset_password: { required: false },
      name: { required: true },
      username: { required: true },
    },
    rules: [PASSWORD_OR_RESET, IDENTITY_PAIR],
    files: ['avatar'],
    shape: UserPublicWire,
    summary: 'Create a user (admin)',
    tag,
  },
  {
    method: 'PUT',
    path: '/users/:id',
    field: 'Mutation.updateUser',
    params: USER_ID,
    rules: [IDENTITY_PAIR],
    files: ['avatar'],
    shape: UserPublicWire,
    summary: 'Update a user (admin)',
    tag,
  },
  {
    method: 'DELETE',
    path: '/users/:id',
    field: 'Mutation.deleteUser',
    params: USER_ID,
    summary: 'Delete a user (admin)',
    tag,
  },
  // GitLab 10.3: 201 with `true`, or `false` when the transition does not apply (already blocked / already active).
  {
    method: 'POST',
    path: '/users/:id/block',
    field: 'Mutation.blockUser',
    params: USER_ID,
    scalar: 'boolean',
    summary: 'Block a user (admin)',
    tag,
  },
  {
    method: 'POST',
    path: '/users/:id/unblock',
    field: 'Mutation.unblockUser',
    params: USER_ID,
    scalar: 'boolean',
    summary: 'Unblock a user (admin)',
    tag,
  },
  {
    method: 'DELETE',
    path: '/users/:id/identities/:provider',
    field: 'Mutation.deleteUserIdentity',
    params: USER_ID,
    summary: "Delete a user's identity at a provider (admin)",
    tag,
  },
  // GitLab 11.0's user status (docs/rest.md#user-status).
  {
    method: 'GET',
    path: '/user/status',
    field: 'Query.currentUserStatus',
    gate: requireCaller,
    shape: UserStatusWire,
    summary: "The authenticated user's status",
    tag,
  },
  {
    method: 'PUT',
    path: '/user/status',
    field: 'Mutation.setUserStatus',
    status: 200,
    shape: UserStatusWire,
    summary: "Set the authenticated user's status",
    tag,
  },
  {
    method: 'GET',
    path: '/users/:user_id/status',
    field: 'Query.userStatus',
    params: { user_id: { description: 'Id or username.' } },
    shape: UserStatusWire,
    summary: "A user's status",
    tag,
  },
  // Later GitLab: following users (docs/rest.md#following); 304 when nothing changed.
  ...(['follow', 'unfollow'] as const).map((verb) => ({
    method: 'POST' as const,
    path: `/users/:id/${verb}`,
    field: `Mutation.${verb}User`,
    params: USER_ID,
    status: (data: unknown) => (data ? 201 : 304),
    shape: UserBasicWire,
    summary: `${verb === 'follow' ? 'Follow' : 'Unfollow'} a user`,
    tag,
  })),
  ...(['followers', 'following'] as const).map((which) => ({
    method: 'GET' as const,
    path: `/users/:id/${which}`,
    field: which === 'followers' ? 'Query.userFollowers' : 'Query.userFollowing',
    params: USER_ID,
    paginated: true,
    shape: UserBasicWire,
    summary: which === 'followers' ? "A user's followers" : 'The users a user follows',
    tag,
  })),
  // Current GitLab's user moderation API (docs/client-routes.md): 201 with `true`, or GitLab's 403 message.
  ...(['deactivate', 'activate', 'ban', 'unban'] as const).map((verb) => ({
    method: 'POST' as const,
    path: `/users/:id/${verb}`,
    field: `Mutation.${verb}User`,
    params: USER_ID,
    scalar: 'boolean' as const,
    summary: `${verb[0].toUpperCase()}${verb.slice(1)} a user (admin)`,
    tag,
  })),
  // Later GitLab's users API (docs/client-routes.md#users).
  {
    method: 'GET',
    path: '/users/:id/associations_count',
    field: 'Query.userAssociationsCount',
    params: USER_ID,
    shape: UserAssociationsCountWire,
    summary: "A user's group and project counts (the user or an admin; issues and merge requests 0)",
    tag,
  },
  {
    method: 'GET',
    path: '/user/preferences',
    field: 'Query.currentUserPreferences',
    shape: UserPreferencesWire,
    summary: "The authenticated user's preferences",
    tag,
  },
  {
    // Grape's at_least_one_of over the three attributes.
    method: 'PUT',
    path: '/user/preferences',
    field: 'Mutation.updateUserPreferences',
    rules: [{ atLeastOneOf: 'input' }],
    status: 200,
    shape: UserPreferencesWire,
    summary: "Change the authenticated user's preferences",
    tag,
  },
  {
    // GitLab's avatar API (lib/api/avatar.rb): no sign-in needed.
    method: 'GET',
    path: '/avatar',
    field: 'Query.avatarLookup',
    shape: AvatarWire,
    summary: 'The avatar URL for an e-mail address',
    tag: 'avatar',
  },
  {
    method: 'GET',
    path: '/user/activities',
    field: 'Query.userActivities',
    paginated: true,
    shape: UserActivityWire,
    summary: 'Users active since a date (admin)',
    tag,
  },
]);

/** `/users/:id/custom_attributes[/:key]` (the custom-attributes module's endpoints, as GitLab includes them). */
export const userCustomAttributeRoutes = defineRoutes(userCustomAttributeEndpoints.routes);
