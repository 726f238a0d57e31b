import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { activeGroupMemberIds, activeMembership } from '../access';
import { MaxItems } from '../../core/graphql/list-bound';
import { descendantIds, groupAndAncestorIds, type Namespace } from '../namespaces';
import { subtreeProjectUserIdsSql } from '../projects';
import { AUTOCOMPLETE_USERS_LIMIT, autocompleteUsersAmong, UserType, type User } from '../users';
import { GroupType } from './group.type';

/**
 * GitLab's Autocomplete::GroupUsersFinder: the users related to a group, who need not have access to it: the
 * members of the group, its ancestors and its descendants; of the groups invited to any of those groups; and of
 * the projects in those groups and the groups invited to them (active memberships and shares only).
 */
function groupUserIdsSql(groupId: number): string {
  const g = String(Number(groupId));
  const hierarchy = `(${groupAndAncestorIds(g)} || ${descendantIds(g)})`;
  const invited = `array(select l.shared_with_group_id from group_group_links l where l.shared_group_id = any(${hierarchy}) and ${activeMembership('l')})`;
  return `${activeGroupMemberIds(hierarchy)}
    union ${activeGroupMemberIds(invited)}
    union ${subtreeProjectUserIdsSql(groupId)}`;
}

@Resolver(() => GroupType)
export class GroupAutocompleteUsersResolver {
  // A picker's field of one group (GitLab resolves it per object too): one statement for that group.
  @FieldResolver(() => [UserType], {
    nullable: true,
    description:
      'Search users for autocompletion: members of the group, its ancestors and descendants, of their projects and of the groups invited to them (active ones), by name, at most 20.',
  })
  @MaxItems(AUTOCOMPLETE_USERS_LIMIT)
  autocompleteUsers(
    @Root() group: Namespace,
    @Ctx() ctx: RequestCtx,
    @Arg('search', () => String, {
      nullable: true,
      description:
        'Query to search users by name or username (words of 3 or more characters match substrings), or the exact e-mail.',
    })
    search?: string | null,
  ): Promise<User[]> {
    return autocompleteUsersAmong(ctx.em, groupUserIdsSql(group.id), search);
  }
}
