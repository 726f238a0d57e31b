import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { activeGroupMemberIds, activeMembership } from '../access';
import { MaxItems } from '../../core/graphql/list-bound';
import { perParent } from '../../core/pagination/per-parent-pages';
import { descendantIds, groupAndAncestorIds, type Namespace } from '../namespaces';
import { subtreeProjectUserIdsSql } from '../projects';
import { AUTOCOMPLETE_USERS_LIMIT, autocompleteUsersByKey, UserType, type User } from '../users';
import { GroupType } from './group.type';

/**
 * GitLab's Autocomplete::GroupUsersFinder: the users related to a group, who need not have access to it: the
 * members of the group, its ancestors and its descendants; of the groups invited to any of those groups; and of
 * the projects in those groups and the groups invited to them (active memberships and shares only).
 */
function groupUserIdsSql(g: string): string {
  const hierarchy = `(${groupAndAncestorIds(g)} || ${descendantIds(g)})`;
  const invited = `array(select l.shared_with_group_id from group_group_links l where l.shared_group_id = any(${hierarchy}) and ${activeMembership('l')})`;
  return `${activeGroupMemberIds(hierarchy)}
    union ${activeGroupMemberIds(invited)}
    union ${subtreeProjectUserIdsSql(g)}`;
}

interface AutocompleteArgs {
  search?: string | null;
}

export const groupAutocompleteLoaders = (ctx: RequestCtx) => ({
  groupAutocompleteUsers: perParent<AutocompleteArgs, User[]>((args, ids) =>
    autocompleteUsersByKey(ctx.em, ids, groupUserIdsSql, args.search),
  ),
});
type GroupAutocompleteLoaders = ReturnType<typeof groupAutocompleteLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends GroupAutocompleteLoaders {}
}

@Resolver(() => GroupType)
export class GroupAutocompleteUsersResolver {
  /** The group is already visible; batched across the groups of a list (one statement per search). */
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
    return ctx.loaders.groupAutocompleteUsers.load({ parentId: group.id, args: { search } });
  }
}
