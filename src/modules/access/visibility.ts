import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { activeMembership, authorizedGroup, authorizedGroupIdsSql, authorizedProject, authorizedProjectIdsSql, intArray, levelPredicate } from './visibility-sql';
import { policy } from './policy';

/**
 * Who may see which groups and projects, as SQL predicates for the caller of this request. The
 * predicates read the membership tables inside the statement (`authorizedProject`, `authorizedGroup`:
 * array subqueries over group_members, namespaces.traversal_ids, project_members and shares), so a list
 * costs no extra round trip and no id list to plan (docs/growth.md, "Member lists"). The id sets
 * themselves (`authorizedProjectIds`) are still computed once per request for the callers that need ids.
 * Writes that change access (memberships, shares, new groups/projects) call `forgetAccess`.
 */
function memo<T>(ctx: RequestCtx, key: string, load: () => Promise<T>): Promise<T> {
  let hit = ctx.memo.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = load();
    ctx.memo.set(key, hit);
  }
  return hit;
}

/** An authorized id set and its SQL literal, built once per request. */
interface IdSet {
  ids: number[];
  literal: string;
}

const EMPTY: IdSet = { ids: [], literal: intArray([]) };

/**
 * The ids as one aggregated `{1,2,…}` text (one row, not thousands: a member of 50 groups reaches about
 * 5,000 projects), which is also the SQL literal the lists inline, built once per request (issue 19).
 */
async function idSet(ctx: RequestCtx, sql: string): Promise<IdSet> {
  const [row] = await sqlRows<{ ids: string }>(ctx.em, `select coalesce(array_agg(id), '{}')::text as ids from (${sql}) authorized`);
  const text = String(row?.ids ?? '{}');
  if (!/^\{[0-9,]*\}$/.test(text)) throw new Error('authorized ids: unexpected array text');
  return { ids: text.length > 2 ? text.slice(1, -1).split(',').map(Number) : [], literal: `'${text}'::int[]` };
}

function projectIdSet(ctx: RequestCtx): Promise<IdSet> {
  const user = ctx.user;
  if (!user) return Promise.resolve(EMPTY);
  return memo(ctx, 'authorizedProjectIds', () => idSet(ctx, authorizedProjectIdsSql(user)));
}

function groupIdSet(ctx: RequestCtx): Promise<IdSet> {
  const user = ctx.user;
  if (!user) return Promise.resolve(EMPTY);
  return memo(ctx, 'authorizedGroupIds', async () => idSet(ctx, authorizedGroupIdsSql(user, (await projectIdSet(ctx)).literal)));
}

export async function authorizedProjectIds(ctx: RequestCtx): Promise<number[]> {
  return (await projectIdSet(ctx)).ids;
}

export async function authorizedGroupIds(ctx: RequestCtx): Promise<number[]> {
  return (await groupIdSet(ctx)).ids;
}

/** Predicate on a projects alias: may the caller read this project? */
export async function projectVisibility(ctx: RequestCtx, alias: string): Promise<string> {
  if (policy.isAdmin(ctx.user)) return 'true';
  if (!ctx.user) return levelPredicate(alias, null);
  return `(${levelPredicate(alias, ctx.user)} or ${authorizedProject(ctx.user, alias)})`;
}

/** Predicate on a namespaces alias: may the caller read this group? */
export async function groupVisibility(ctx: RequestCtx, alias: string): Promise<string> {
  if (policy.isAdmin(ctx.user)) return 'true';
  if (!ctx.user) return levelPredicate(alias, null);
  return `(${levelPredicate(alias, ctx.user)} or ${authorizedGroup(ctx.user, alias)})`;
}

/**
 * The disjoint halves of a signed-in non-admin caller's project (or group) visibility predicate, for
 * `ListQuery.split`: visible by level, else by membership. Undefined for admins and anonymous callers (one predicate).
 */
function splitVisibility(ctx: RequestCtx, alias: string, authorized: (user: NonNullable<RequestCtx['user']>, alias: string) => string): string[] | undefined {
  if (!ctx.user || policy.isAdmin(ctx.user)) return undefined;
  const level = levelPredicate(alias, ctx.user);
  return [level, `not (${level}) and ${authorized(ctx.user, alias)}`];
}

export const projectVisibilitySplit = async (ctx: RequestCtx, alias: string) => splitVisibility(ctx, alias, authorizedProject);
export const groupVisibilitySplit = async (ctx: RequestCtx, alias: string) => splitVisibility(ctx, alias, authorizedGroup);

/**
 * Predicate on a namespaces alias for the namespaces API: admins all; others their own namespace and
 * the groups they are an active member of, with those groups' descendants (inherited membership).
 */
export async function namespaceVisibility(ctx: RequestCtx, alias: string): Promise<string> {
  if (policy.isAdmin(ctx.user)) return 'true';
  if (!ctx.user) return 'false';
  const uid = Number(ctx.user.id);
  return `(${alias}.owner_id = ${uid} or (${alias}.kind = 'group' and ${alias}.traversal_ids &&
    array(select gm.group_id from group_members gm where gm.user_id = ${uid} and ${activeMembership('gm')})))`;
}

/** Predicate: the group is one "of" the caller (their default GET /groups set). */
export async function ownGroups(ctx: RequestCtx, alias: string): Promise<string> {
  return ctx.user ? authorizedGroup(ctx.user, alias) : 'false';
}

/** Predicate: the caller is a member of the project (directly or through groups and shares). */
export async function memberProjects(ctx: RequestCtx, alias: string): Promise<string> {
  return ctx.user ? authorizedProject(ctx.user, alias) : 'false';
}

/** Call after a write that changes who can see what (memberships, shares, new groups or projects). */
export function forgetAccess(ctx: RequestCtx): void {
  ctx.memo.delete('authorizedProjectIds');
  ctx.memo.delete('authorizedGroupIds');
  ctx.loaders.groupLevel.clearAll();
  ctx.loaders.projectLevel.clearAll();
}
