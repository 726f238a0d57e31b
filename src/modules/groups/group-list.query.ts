import type { RequestCtx } from '../../core/context/request-ctx';
import { lightEntity, likeEscape, sqlRows } from '../../core/db/sql';
import { ParamError } from '../../core/errors/domain-errors';
import { keysetPage, offsetPage, type ListQuery } from '../../core/pagination/list-query';
import { makePage, normalizePage, type Page } from '../../core/pagination/page';
import { AccessLevel } from '../access/access-level';
import { activeMembership, intArray } from '../access/visibility-sql';
import { groupVisibility, ownGroups } from '../access/visibility';
import { SortDirection, VISIBILITY_LEVEL } from '../access/visibility.type';
import { GroupOrderBy, PaginationMode, type GroupsArgs } from './group.inputs';
import { Namespace } from '../namespaces/namespace.entity';
import { policy } from '../access/policy';

/**
 * The group list query behind GET /groups and GET /groups/:id/subgroups (docs/gitlab-compatibility.md, "Groups"):
 * one count and one page query, whatever the page size; hierarchy through traversal_ids.
 */
export interface GroupListScope {
  /** Direct children of this group only (subgroups). */
  parentId?: number;
}

const ORDER: Record<GroupOrderBy, string> = { NAME: 'name', PATH: 'path', ID: 'id' };

/** Who-sees-what for lists: admins all; anonymous public; users "their" groups, or all visible with all_available. */
async function visibilityFilter(ctx: RequestCtx, args: GroupsArgs): Promise<string> {
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
  where: string[];
  params: unknown[];
  column: string;
  dir: 'asc' | 'desc';
}

/** WHERE and ORDER BY of a group list, shared by the single list and the batched subgroups loader. */
async function groupFilter(ctx: RequestCtx, args: GroupsArgs, scope: GroupListScope): Promise<GroupFilter> {
  const params: unknown[] = [];
  const where = [`n.kind = 'group'`, await visibilityFilter(ctx, args)];
  if (scope.parentId !== undefined) {
    where.push('n.parent_id = ?');
    params.push(scope.parentId);
  }
  if (args.skipGroups?.length) where.push(`not (n.id = any(${intArray(args.skipGroups)}))`);
  if (args.search) where.push(searchFilter(args.search, params));
  if (args.owned) {
    where.push(ctx.user ? `n.id in (select gm.group_id from group_members gm where gm.user_id = ${Number(ctx.user.id)} and gm.access_level = ${AccessLevel.OWNER} and ${activeMembership('gm')})` : 'false');
  }
  // custom_attributes filters apply for administrators only (docs/gitlab-compatibility.md, "Groups").
  if (policy.canSeeCustomAttributes(ctx.user) && args.customAttributes?.length) {
    for (const attr of args.customAttributes) {
      where.push('exists (select 1 from group_custom_attributes ca where ca.group_id = n.id and ca.key = ? and ca.value = ?)');
      params.push(attr.key, attr.value);
    }
  }
  const column = ORDER[args.orderBy ?? GroupOrderBy.NAME];
  const dir = (args.sort ?? SortDirection.ASC) === SortDirection.ASC ? 'asc' : 'desc';
  return { where, params, column, dir };
}

/**
 * A listed group's row, kept in the namespace loader too: its projects' namespace and its subgroups'
 * parent are then answered without fetching the same row again (issue 8).
 */
function groupRow(ctx: RequestCtx, row: Record<string, unknown>): Namespace {
  const group = lightEntity(ctx.em, Namespace, row);
  ctx.loaders.namespace.fill(group.id, group);
  return group;
}

export async function listGroups(ctx: RequestCtx, args: GroupsArgs, scope: GroupListScope = {}): Promise<Page<Namespace>> {
  const { where, params, column, dir } = await groupFilter(ctx, args, scope);
  const query: ListQuery<Namespace> = {
    select: 'n.*', from: 'namespaces n', where, params, orderBy: `n.${column}`, dir, id: 'n.id', map: (r) => groupRow(ctx, r),
  };
  if (args.pagination !== PaginationMode.KEYSET) return offsetPage(ctx.em, query, args);
  if (column === 'path') throw ParamError.notInSet('order_by');
  return keysetPage(ctx.em, query, args, (n) => (column === 'id' ? n.id : n.name));
}

/**
 * Subgroup pages of many parents with the same arguments in one query (the GraphQL `Group.subgroups`
 * field inside a list): a window per parent gives each its own page and total. Offset pagination only.
 */
export async function listSubgroupsBatched(ctx: RequestCtx, args: GroupsArgs, parentIds: readonly number[]): Promise<Page<Namespace>[]> {
  const req = normalizePage(args);
  const { where, params, column, dir } = await groupFilter(ctx, args, {});
  where.push(`n.parent_id = any(${intArray(parentIds)})`);
  const rows = await sqlRows<Record<string, unknown>>(
    ctx.em,
    `select * from (select n.*, row_number() over w as page_rn, count(*) over (partition by n.parent_id) as page_total
       from namespaces n where ${where.join(' and ')} window w as (partition by n.parent_id order by n.${column} ${dir}, n.id ${dir})) x
      where page_rn > ${req.offset} and page_rn <= ${req.offset + req.perPage} order by parent_id, page_rn`,
    params,
  );
  const byParent = new Map<number, { nodes: Namespace[]; total: number }>();
  for (const row of rows) {
    const { page_rn: _rn, page_total: total, ...entity } = row;
    const entry = byParent.get(Number(row.parent_id)) ?? { nodes: [], total: Number(total) };
    entry.nodes.push(groupRow(ctx, entity));
    byParent.set(Number(row.parent_id), entry);
  }
  // A parent whose page is past the end still needs its total: one extra count for those only.
  const missing = parentIds.filter((id) => !byParent.has(id));
  const totals = new Map<number, number>();
  if (missing.length && req.offset > 0) {
    const counted = await sqlRows<{ parent_id: number; n: string }>(
      ctx.em,
      `select n.parent_id, count(*) as n from namespaces n where ${where.join(' and ')} and n.parent_id = any(${intArray(missing)}) group by n.parent_id`,
      params,
    );
    for (const c of counted) totals.set(Number(c.parent_id), Number(c.n));
  }
  return parentIds.map((id) => {
    const entry = byParent.get(id);
    return makePage(entry?.nodes ?? [], entry?.total ?? totals.get(id) ?? 0, req);
  });
}
