import type { RequestCtx } from '../../core/context/request-ctx';
import { pgArray } from '../../core/db/sql';
import { ParamError } from '../../core/errors/domain-errors';
import {
  offsetPage,
  offsetPagesByKey,
  type ListQuery,
  type PageInput,
  type PageKey,
} from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { joinUser } from '../users';
import { Runner } from './runner.entity';

/** A runner is online when it contacted the server within the last hour (spec 3, "Runner"). */
export const ONLINE_WINDOW_MS = 60 * 60 * 1000;
/** Later GitLab's stale runner: no contact (or, never contacted, no creation) for 3 months. */
export const STALE_WINDOW_MS = 90 * 24 * 60 * 60 * 1000;

export type RunnerStatusName = 'ONLINE' | 'OFFLINE' | 'STALE' | 'NEVER_CONTACTED';

/** The status of one runner, by the same rules as `statusFilter`. */
export function runnerStatus(r: { contactedAt: Date | null; createdAt: Date }, now: Date): RunnerStatusName {
  const t = now.getTime();
  if (!r.contactedAt) return r.createdAt.getTime() < t - STALE_WINDOW_MS ? 'STALE' : 'NEVER_CONTACTED';
  if (r.contactedAt.getTime() > t - ONLINE_WINDOW_MS) return 'ONLINE';
  return r.contactedAt.getTime() < t - STALE_WINDOW_MS ? 'STALE' : 'OFFLINE';
}

function statusFilter(status: RunnerStatusName, now: Date, params: unknown[]): string {
  const online = new Date(now.getTime() - ONLINE_WINDOW_MS);
  const stale = new Date(now.getTime() - STALE_WINDOW_MS);
  switch (status) {
    case 'ONLINE':
      params.push(online);
      return 'r.contacted_at > ?';
    case 'OFFLINE':
      params.push(online, stale);
      return '(r.contacted_at <= ? and r.contacted_at >= ?)';
    case 'STALE':
      params.push(stale, stale);
      return '(r.contacted_at < ? or (r.contacted_at is null and r.created_at < ?))';
    case 'NEVER_CONTACTED':
      params.push(stale);
      return '(r.contacted_at is null and r.created_at >= ?)';
  }
}

export interface RunnerFilters {
  status?: RunnerStatusName | null;
  tagList?: string[] | null;
  search?: string | null;
  type?: 'INSTANCE_TYPE' | 'GROUP_TYPE' | 'PROJECT_TYPE' | null;
  sort?: 'CONTACTED_ASC' | 'CONTACTED_DESC' | 'CREATED_ASC' | 'CREATED_DESC' | null;
  /** GitLab's `paused` filter (ci_runners_active_idx). */
  paused?: boolean | null;
  /** GitLab's `versionPrefix`: runners whose manager (runner-manager.ts) runs a version starting so. */
  versionPrefix?: string | null;
  /** GitLab's `creatorUsername`: runners created (runnerCreate) by that user; an unknown one matches none. */
  creatorUsername?: string | null;
}

/**
 * GitLab's version prefix (RunnersFinder#by_version_prefix): the leading digits, dots and `+` of the
 * term; none (`abc`) is no filter.
 */
export const versionPrefixOf = (term: string | null | undefined): string | null =>
  /^[\d+.]+/.exec(term ?? '')?.[0] ?? null;

/** GitLab's runner types on this service's runners: shared = instance, specific = project; no group runners. */
const TYPE_FILTER: Record<NonNullable<RunnerFilters['type']>, string> = {
  INSTANCE_TYPE: 'r.is_shared',
  PROJECT_TYPE: 'not r.is_shared',
  GROUP_TYPE: 'false',
};

/**
 * Sort columns (CiRunnerSort), each with its (expression, id) index (migration runner_sort_indexes):
 * never contacted sorts as -infinity, so the column has no NULL and a keyset cursor stays one value.
 */
export const CONTACTED_SORT = "coalesce(r.contacted_at, '-infinity'::timestamptz)";
const SORT: Record<NonNullable<RunnerFilters['sort']>, { orderBy: string; dir: 'asc' | 'desc' }> = {
  CONTACTED_ASC: { orderBy: CONTACTED_SORT, dir: 'asc' },
  CONTACTED_DESC: { orderBy: CONTACTED_SORT, dir: 'desc' },
  CREATED_ASC: { orderBy: 'r.created_at', dir: 'asc' },
  CREATED_DESC: { orderBy: 'r.created_at', dir: 'desc' },
};

export type ScopeName = 'active' | 'paused' | 'online' | 'specific' | 'shared';

/** GitLab's filter_runners: an allowed scope or 400 "scope does not have a valid value". */
export function checkScope(scope: string | null | undefined, allowed: readonly ScopeName[]): ScopeName | undefined {
  if (scope === undefined || scope === null) return undefined;
  const s = scope.toLowerCase() as ScopeName;
  if (!allowed.includes(s)) throw ParamError.notInSet('scope');
  return s;
}

function scopeFilter(scope: ScopeName, now: Date, params: unknown[]): string {
  switch (scope) {
    case 'active':
      return 'r.active';
    case 'paused':
      return 'not r.active';
    case 'specific':
      return 'not r.is_shared';
    case 'shared':
      return 'r.is_shared';
    case 'online':
      params.push(new Date(now.getTime() - ONLINE_WINDOW_MS));
      return 'r.contacted_at > ?';
  }
}

/**
 * One runner list's query: a base filter (which runners the route covers) and an optional scope,
 * ordered by id or `sort`. Indexes: ci_runners_{shared,active,contacted}_idx, the sort indexes,
 * ci_runners_description_trgm and ci_runners_token_digest_uniq (search), ci_runners_version_prefix_idx,
 * ci_runners_creator_idx.
 */
export function runnerListQuery(
  ctx: RequestCtx,
  base: string,
  baseParams: unknown[],
  scope: ScopeName | undefined,
  args: RunnerFilters,
): ListQuery<Runner> {
  const params = [...baseParams];
  const where = [base];
  // Filters whose matches may be few and anywhere along the order (docs/growth.md#far-end-matches).
  const selective: string[] = [];
  const narrow = (sql: string) => (selective.push(sql), sql);
  if (scope) where.push(scopeFilter(scope, ctx.clock.now(), params));
  if (args.status) where.push(statusFilter(args.status, ctx.clock.now(), params));
  if (args.tagList?.length) {
    // The GIN index on tag_list serves the containment.
    where.push('r.tag_list @> ?::text[]');
    params.push(`{${args.tagList.map((t) => `"${t.replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
  }
  if (args.search) {
    // GitLab's Ci::Runner.search: the description contains the term, or the term is the runner's whole token.
    where.push(narrow("(r.description ilike ? escape '\\' or r.token_digest = any(?::text[]))"));
    params.push(`%${args.search.replace(/[\\%_]/g, '\\$&')}%`, pgArray(ctx.secrets.digests(args.search)));
  }
  if (args.type) where.push(TYPE_FILTER[args.type]);
  if (args.paused === true || args.paused === false) where.push(args.paused ? 'not r.active' : 'r.active');
  const prefix = versionPrefixOf(args.versionPrefix);
  if (prefix) {
    // A runner's version is its manager's, and it has one once it made contact (runner-manager.ts).
    where.push(narrow('(r.contacted_at is not null and r.version like ?)'));
    params.push(`${prefix}%`);
  }
  if (args.creatorUsername) {
    where.push(
      narrow(
        `r.creator_id in (select cu.id from ci_runners cr ${joinUser('cr.creator_id', 'cu')} where lower(cu.username) = lower(?))`,
      ),
    );
    params.push(args.creatorUsername);
  }
  // Without sort: by id, as before (REST's order).
  const { orderBy, dir } = args.sort ? SORT[args.sort] : { orderBy: 'r.id', dir: 'asc' as const };
  return {
    select: 'r.*',
    from: 'ci_runners r',
    where,
    params,
    orderBy,
    dir,
    id: 'r.id',
    selective,
    map: (row) => ctx.em.map(Runner, row as never),
  };
}

/** One runner list (a count and a page query, through the shared list builder). */
export function listRunners(
  ctx: RequestCtx,
  base: string,
  baseParams: unknown[],
  scope: ScopeName | undefined,
  args: PageInput & RunnerFilters,
): Promise<Page<Runner>> {
  return offsetPage(ctx.em, runnerListQuery(ctx, base, baseParams, scope, args), args);
}

/**
 * The same runner list for many parents at once (the runners of every project or group of a list): a
 * bounded count and a lateral page per parent in one round trip; `key` ties a runner to the parent
 * `page_keys.k` (list-query.ts `offsetPagesByKey`).
 */
export function listRunnersByKey(
  ctx: RequestCtx,
  key: PageKey,
  parentIds: readonly number[],
  args: PageInput & RunnerFilters,
): Promise<Map<number, Page<Runner>>> {
  return offsetPagesByKey(ctx.em, runnerListQuery(ctx, 'true', [], undefined, args), key, parentIds, args);
}
