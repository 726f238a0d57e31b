import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { AUDIT_CHANNEL } from '../../core/events/audit';
import { auditTargets } from '../../core/events/audit-targets';
import { liveIterator } from '../../core/events/live';
import { globalIdOf } from '../../core/graphql/global-id';
import { policy } from '../access';
import { mayReadRunner, ownedRunnerIds } from './runner.policy';
import { Runner } from './runner.entity';

/** What Subscription.runnerChanged delivers. */
export interface RunnerChange {
  /** The runner's global id (`gid://gitlab/Ci::Runner/<id>`), as `Runner.id`. */
  runnerId: string;
  databaseId: number;
  runner: Runner | null;
  deleted: boolean;
}

/**
 * The runners a non-admin subscriber may read when subscribing (`runner(id)`'s rule: shared runners and
 * the specific runners they own): a runner is gone by the time its removal is delivered, so whether
 * the subscriber could read it is remembered — from here, and from each change delivered since.
 */
async function readableAtStart(ctx: RequestCtx, id: number | null | undefined): Promise<Set<number>> {
  const owned = await ownedRunnerIds(ctx);
  const only = id ?? null;
  const shared = await sqlRows<{ id: number }>(
    ctx.em,
    `select id from ci_runners where is_shared${only === null ? '' : ' and id = ?'}`,
    only === null ? [] : [only],
  );
  const all = [...owned, ...shared.map((r) => Number(r.id))];
  return new Set(only === null ? all : all.filter((x) => x === only));
}

/**
 * Subscription.runnerChanged: each runner changed (description, active, tags, run_untagged, locked,
 * access level) or removed, on any instance, fed by the audit events' commit NOTIFY (target Ci::Runner)
 * and loaded as it is now. Who receives what: `runner(id)`'s rule per event (administrators every
 * runner, other users shared runners and the specific runners they own); a removal goes to those who
 * could read the runner before (readableAtStart). Status by time (online = contacted within the last
 * hour) is not an event: clients derive it from contactedAt.
 */
export async function runnerChanges(
  ctx: RequestCtx,
  id: number | null | undefined,
): Promise<AsyncIterableIterator<RunnerChange>> {
  const known = policy.isAdmin(ctx.user) ? new Set<number>() : await readableAtStart(ctx, id);
  return liveIterator(ctx, AUDIT_CHANNEL, {
    async load(fresh, payload) {
      const ids = (await auditTargets(fresh.em, payload, 'Ci::Runner'))
        .map((t) => Number(t.targetId))
        .filter((x) => id == null || x === id);
      if (ids.length === 0) return [];
      const found = new Map((await fresh.em.find(Runner, { id: { $in: ids } })).map((r) => [r.id, r]));
      return ids.map((x) => ({
        runnerId: globalIdOf('Ci::Runner', x),
        databaseId: x,
        runner: found.get(x) ?? null,
        deleted: !found.has(x),
      }));
    },
    async visible(fresh, change) {
      if (policy.isAdmin(fresh.user)) return true;
      if (!change.runner) return known.delete(change.databaseId);
      const readable = await mayReadRunner(fresh, change.runner);
      if (readable) known.add(change.databaseId);
      else known.delete(change.databaseId);
      return readable;
    },
  });
}
