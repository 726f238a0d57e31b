import type { RequestCtx } from '../../core/context/request-ctx';
import { ParamError } from '../../core/errors/domain-errors';
import { offsetPage, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
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
 * One runner list: a base filter (which runners the route covers) and an optional scope, ordered by
 * id, through the shared list builder (a count and a page query). Indexes: ci_runners_{shared,active,contacted}_idx.
 */
export function listRunners(ctx: RequestCtx, base: string, baseParams: unknown[], scope: ScopeName | undefined, args: PageInput): Promise<Page<Runner>> {
  const params = [...baseParams];
  const where = [base];
  if (scope) where.push(scopeFilter(scope, ctx.clock.now(), params));
  return offsetPage(ctx.em, { select: 'r.*', from: 'ci_runners r', where, params, orderBy: 'r.id', dir: 'asc', id: 'r.id', map: (row) => ctx.em.map(Runner, row as never) }, args);
}
