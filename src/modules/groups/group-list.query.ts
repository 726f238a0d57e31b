import type { RequestCtx } from '../../core/context/request-ctx';
import { likeEscape } from '../../core/db/sql';
import {
  assertKeysetOrder,
  keysetPage,
  offsetPage,
  offsetPagesByKey,
  type ListQuery,
  type PageInput,
} from '../../core/pagination/list-query';
import { PaginationMode, type Page } from '../../core/pagination/page';
import { groupVisibility, groupVisibilitySplit, ownGroups } from '../projects';
import {
  AccessLevel,
  activeMembership,
  groupIdsWhereUserIs,
  groupMembershipsOf,
  intArray,
  SortDirection,
  VISIBILITY_LEVEL,
  policy,
} from '../access';
import { GroupOrderBy, type DescendantGroupsArgs, type GroupListArgs, type GroupsArgs } from './group.inputs';
import { descendantIds, groupListRows, namespaceFromRow, type Namespace } from '../namespaces';
import { customAttributeFilter } from '../custom-attributes';
import { keepListedAvatar, listedAvatarColumn } from './group-avatar-files';

/**
 * The group list query behind GET /groups and GET /groups/:id/subgroups (docs/gitlab-compatibility.md, "Groups"):
 * one count and one page query, whatever the page size; hierarchy through traversal_ids.
 */
export interface GroupListScope {
  /** Direct children of this group only (subgroups). */
  parentId?: number;
  /** Subgroups of this group at any depth (descendant groups; the traversal_ids GIN index). */
  ancestorId?: number;
  /** Only these groups (a project's groups). */
  ids?: readonly number[];
  /** Only the groups matching this predicate on `n` (transfer and share targets, a project's groups). */
  match?: string;
  /** GitLab's later orders (`adminGroups(sort)`, `sharedGroups(sort)`), in place of `orderBy`/`sort`. */
  order?: GroupOrder;
}

/** Predicate on `n`: at or below a group where the user is a member at `level` or above (traversal_ids GIN). */
export const memberTreeAt = (userId: number, level: number) =>
  `n.traversal_ids && array(select gm.group_id from ${groupMembershipsOf(userId, level)})`;

/** A group list order: a namespaces column (each with its (column, id) index) and a direction. */
export interface GroupOrder {
  column: 'name' | 'path' | 'id' | 'created_at' | 'updated_at' | 'similarity';
  dir: 'asc' | 'desc';
}

const ORDER: Record<GroupOrderBy, string> = { NAME: 'name', PATH: 'path', ID: 'id' };

/** Who-sees-what for lists: admins all; anonymous public; users "their" groups, or all visible with all_available. */
function visibilityFilter(ctx: RequestCtx, args: GroupsArgs): string | Promise<string> {
  const user = ctx.user;
  if (policy.isAdmin(user)) return 'true';
  if (!user) return `n.visibility_level = ${VISIBILITY_LEVEL.PUBLIC}`;
  return args.allAvailable ? groupVisibility(ctx, 'n') : ownGroups(ctx, 'n');
}

/** Short terms match exactly, longer ones as substrings (GitLab's 3-character rule); % _ \ are literal. */
function searchFilter(term: string, params: unknown[]): string {
  const escaped = likeEscape(term);
  const pattern = term.length >= 3 ? `%${escaped}%` : escaped;
  params.push(pattern, pattern);
  return `(n.name ilike ? or n.path ilike ?)`;
}

interface GroupFilter {
  from: string;
  where: string[];
  split?: string[];
  splitOf?: string;
  params: unknown[];
  column: string;
  dir: 'asc' | 'desc';
  selective: string[];
}

/** WHERE and ORDER BY of a group list, shared by the single list and the batched subgroups loader. */
async function groupFilter(ctx: RequestCtx, args: GroupsArgs, scope: GroupListScope): Promise<GroupFilter> {
  const params: unknown[] = [];
  // Administrators' and anonymous callers' predicates are known at once: no promise to wait for.
  const filter = visibilityFilter(ctx, args);
  const visible = typeof filter === 'string' ? filter : await filter;
  // A user's own groups (the default set) are a short id list: read them first behind a fence, then order them.
  const own = !!ctx.user && !policy.isAdmin(ctx.user) && !args.allAvailable;
  const from = groupListRows(own ? visible : undefined);
  const where = own ? [`n.kind = 'group'`] : [`n.kind = 'group'`, visible];
  // filters whose matches may be few and anywhere along the order (docs/growth.md#far-end-matches)
  const selective: string[] = [];
  const narrow = (sql: string) => (selective.push(sql), sql);
  if (scope.parentId !== undefined) {
    where.push('n.parent_id = ?');
    params.push(scope.parentId);
  }
  if (scope.ids !== undefined) where.push(narrow(`n.id = any(${intArray(scope.ids)})`));
  if (scope.ancestorId !== undefined) {
    where.push(narrow('n.traversal_ids @> array[?]::int[] and n.id <> ?'));
    params.push(scope.ancestorId, scope.ancestorId);
  }
  if (scope.match !== undefined) where.push(narrow(scope.match));
  if (args.skipGroups?.length) where.push(`not (n.id = any(${intArray(args.skipGroups)}))`);
  if ((args as GroupListArgs).topLevelOnly) where.push('n.parent_id is null');
  if ((args as GroupListArgs).active === false) where.push('false');
  if (args.search) where.push(narrow(searchFilter(args.search, params)));
  if (args.owned) {
    where.push(narrow(ctx.user ? `n.id in (${groupIdsWhereUserIs(Number(ctx.user.id), AccessLevel.OWNER)})` : 'false'));
  }
  // custom_attributes filters apply for administrators only (docs/gitlab-compatibility.md, "Groups").
  const attributesAt = where.length;
  customAttributeFilter(ctx, 'Group', 'n.id', args.customAttributes, where, params);
  selective.push(...where.slice(attributesAt));
  const column = scope.order?.column ?? ORDER[args.orderBy ?? GroupOrderBy.NAME];
  const dir = scope.order?.dir ?? ((args.sort ?? SortDirection.ASC) === SortDirection.ASC ? 'asc' : 'desc');
  // Administrators see every group: one predicate, nothing to split.
  const split =
    ctx.user && args.allAvailable && !policy.isAdmin(ctx.user) ? await groupVisibilitySplit(ctx, 'n') : undefined;
  return { from, where, split, splitOf: visible, params, column, dir, selective };
}

/**
 * A listed group's row, kept in the namespace loader too: its projects' namespace and its subgroups'
 * parent are then answered without fetching the same row again. Its avatar is the row's
 * `avatar_filename`, or none when the list left that column out (no group has an avatar).
 */
function groupRow(ctx: RequestCtx, row: Record<string, unknown>): Namespace {
  const group = namespaceFromRow(ctx.em, row);
  keepListedAvatar(group, row);
  ctx.loaders.namespace.fill(group.id, group);
  return group;
}

async function groupQuery(ctx: RequestCtx, args: GroupsArgs, scope: GroupListScope): Promise<ListQuery<Namespace>> {
  const { from, where, split, splitOf, params, column, dir, selective } = await groupFilter(ctx, args, scope);
  const avatar = listedAvatarColumn(ctx);
  return {
    select: `n.*${typeof avatar === 'string' ? avatar : await avatar}`,
    from,
    where,
    split,
    splitOf,
    params,
    orderBy: `n.${column}`,
    dir,
    id: 'n.id',
    selective,
    map: (r) => groupRow(ctx, r),
  };
}

/** Keyset pagination orders (GitLab: name; `id` is ours, docs/gitlab-compatibility.md#where-we-chose-between-the-spec-and-the-reference). */
const KEYSET_ORDERS = ['n.name', 'n.id'];

export async function listGroups(
  ctx: RequestCtx,
  args: GroupsArgs,
  scope: GroupListScope = {},
): Promise<Page<Namespace>> {
  const query = await groupQuery(ctx, args, scope);
  if (args.pagination !== PaginationMode.KEYSET) return offsetPage(ctx.em, query, args);
  assertKeysetOrder(query.orderBy, KEYSET_ORDERS);
  return keysetPage(ctx.em, query, args, (n) => (query.orderBy === 'n.id' ? n.id : n.name));
}

/**
 * Subgroup pages of many parents with the same arguments in one round trip (the GraphQL `Group.subgroups`
 * field inside a list): each parent gets its own page and bounded total. Offset pagination only.
 */
export async function listSubgroupsBatched(
  ctx: RequestCtx,
  args: GroupsArgs,
  parentIds: readonly number[],
): Promise<Map<number, Page<Namespace>>> {
  return offsetPagesByKey(ctx.em, await groupQuery(ctx, args, {}), 'n.parent_id', parentIds, args);
}

/**
 * `Group.descendantGroups` of many groups with the same arguments in one round trip: each group's
 * visible subgroups at any depth (the traversal_ids GIN index: `traversal_ids @> array[group]`, the
 * group itself left out), or its direct subgroups with includeParentDescendants: false. Every group
 * the caller may see, as `groups(allAvailable: true)`; ordered by name.
 */
export async function listDescendantGroupsBatched(
  ctx: RequestCtx,
  args: DescendantGroupsArgs,
  parentIds: readonly number[],
): Promise<Map<number, Page<Namespace>>> {
  const query = await groupQuery(ctx, { allAvailable: true, search: args.search, owned: args.owned }, {});
  // The descendants' ids first (GIN), then their rows by id: left to a plain predicate under `order by
  // name limit n`, the planner walks the name index of every group.
  const key =
    args.includeParentDescendants === false
      ? 'n.parent_id'
      : {
          match: `n.id = any(${descendantIds('page_keys.k', false)})`,
        };
  return offsetPagesByKey(ctx.em, query, key, parentIds, args);
}

/**
 * Pages of one group list for many keys at once (a user's groups for every user of a list, a project's
 * groups for every project of a list): `key` matches a group row `n` to `page_keys.k`. Every group the
 * caller may see, as `groups(allAvailable: true)`; by name unless `filter.orderBy` says otherwise.
 */
export async function listGroupsBatched(
  ctx: RequestCtx,
  filter: Pick<GroupsArgs, 'search' | 'owned' | 'skipGroups' | 'orderBy'>,
  key: { match: string },
  keys: readonly number[],
  args: PageInput,
): Promise<Map<number, Page<Namespace>>> {
  const query = await groupQuery(ctx, { allAvailable: true, ...filter }, {});
  return offsetPagesByKey(ctx.em, query, key, keys, args);
}

/**
 * GitLab's similarity score of a group to a search (Namespace `sorted_by_similarity_desc`: pg_trgm
 * similarity of the path, plus 0.7 × that of the name, rounded to 2 decimals), as the column
 * `similarity` of `n`; its two parameters are the term, and come before the list's own.
 */
const withSimilarity = (from: string) =>
  `(select n.*, round(cast(similarity(coalesce(n.path, ''), ?) + similarity(coalesce(n.name, ''), ?) * 0.7 as numeric), 2) as similarity from ${from}) n`;

/**
 * `Group.sharedGroups` of many groups with one argument set (GitLab's SharedGroupsFinder): the groups
 * shared with each group (active group_group_links naming it as the invited group: the groups it was
 * invited to) that the caller may see, by `order`; one count and one page statement for all the groups.
 * Each group's list is read through `group_group_links_shared_with` and the namespaces primary key, then
 * sorted (it holds the groups one group was invited to, not the instance's groups).
 */
export async function listSharedGroupsBatched(
  ctx: RequestCtx,
  args: PageInput & { search?: string | null },
  order: GroupOrder & { search?: string },
  groupIds: readonly number[],
): Promise<Map<number, Page<Namespace>>> {
  const query = await groupQuery(ctx, { allAvailable: true, search: args.search ?? undefined }, { order });
  const key = {
    match: `n.id = any(array(select l.shared_group_id from group_group_links l
      where l.shared_with_group_id = page_keys.k and ${activeMembership('l')}))`,
  };
  if (order.column !== 'similarity') return offsetPagesByKey(ctx.em, query, key, groupIds, args);
  const scored = { ...query, from: withSimilarity(query.from), params: [order.search, order.search, ...query.params] };
  return offsetPagesByKey(ctx.em, scored, key, groupIds, args);
}

/**
 * GitLab's group sort values (Sortable#order_by with Namespace's path orders), case-sensitive as there.
 * A value it does not know leaves the list unordered, which its keyset connection orders by id, newest
 * first; so does `similarity` here, which these lists (`groups`, `adminGroups`) do not rank by.
 * Storage-size orders are not served: summed storage has no index.
 */
const GITLAB_GROUP_SORTS: Record<string, GroupOrder> = {
  name_asc: { column: 'name', dir: 'asc' },
  name_desc: { column: 'name', dir: 'desc' },
  path_asc: { column: 'path', dir: 'asc' },
  path_desc: { column: 'path', dir: 'desc' },
  id_asc: { column: 'id', dir: 'asc' },
  id_desc: { column: 'id', dir: 'desc' },
  created_asc: { column: 'created_at', dir: 'asc' },
  created_at_asc: { column: 'created_at', dir: 'asc' },
  created_desc: { column: 'created_at', dir: 'desc' },
  created_at_desc: { column: 'created_at', dir: 'desc' },
  created_date: { column: 'created_at', dir: 'desc' },
  updated_asc: { column: 'updated_at', dir: 'asc' },
  updated_at_asc: { column: 'updated_at', dir: 'asc' },
  updated_desc: { column: 'updated_at', dir: 'desc' },
  updated_at_desc: { column: 'updated_at', dir: 'desc' },
};
const UNORDERED: GroupOrder = { column: 'id', dir: 'desc' };

export const gitlabGroupOrder = (sort: string | null | undefined): GroupOrder =>
  GITLAB_GROUP_SORTS[sort ?? 'name_asc'] ?? UNORDERED;
