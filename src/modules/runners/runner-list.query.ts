import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlEntities, sqlRows } from '../../core/db/sql';
import { ParamError } from '../../core/errors/domain-errors';
import { makePage, normalizePage, type Page } from '../../core/pagination/page';
import type { PageArgs } from '../../core/pagination/page';
import { Runner } from './runner.entity';

/** A runner is online when it contacted the server within the last hour (spec 3, "Runner"). */
export const ONLINE_WINDOW_MS = 60 * 60 * 1000;

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
 * One runner list: a base filter (which runners the route covers), an optional scope, ordered by id
 * and paginated in SQL (a count and a page query). Indexes: ci_runners_{shared,active,contacted}_idx.
 */
export async function listRunners(ctx: RequestCtx, base: string, baseParams: unknown[], scope: ScopeName | undefined, args: PageArgs): Promise<Page<Runner>> {
  const req = normalizePage(args);
  const params = [...baseParams];
  const where = [base];
  if (scope) where.push(scopeFilter(scope, ctx.clock.now(), params));
  const filter = where.join(' and ');
  const [count] = await sqlRows<{ n: string }>(ctx.em, `select count(*) as n from ci_runners r where ${filter}`, params);
  const nodes = await sqlEntities(ctx.em, Runner, `select r.* from ci_runners r where ${filter} order by r.id limit ${req.perPage} offset ${req.offset}`, params);
  return makePage(nodes, Number(count.n), req);
}
