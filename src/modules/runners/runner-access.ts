import type { CurrentUser, RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { AccessLevel } from '../access/access-level';

/**
 * Runners "owned" by a user (GitLab 10.3 `ci_authorized_runners`): specific runners enabled in a
 * project where the user is Master or Owner through project membership, group membership (here or
 * in an ancestor group) or their personal namespace. Shared runners never count; being an admin does
 * not widen the set. Computed once per request and inlined as an int array.
 */
function ownedRunnerIdsSql(user: CurrentUser): string {
  const uid = Number(user.id);
  const active = (a: string) => `(${a}.expires_at is null or ${a}.expires_at > current_date)`;
  return `with mg as (select coalesce(array_agg(gm.group_id), '{}') as ids from group_members gm
                       where gm.user_id = ${uid} and gm.access_level >= ${AccessLevel.MASTER} and ${active('gm')}),
    mp as (select pm.project_id as id from project_members pm where pm.user_id = ${uid} and pm.access_level >= ${AccessLevel.MASTER} and ${active('pm')}
      union select p.id from projects p where p.namespace_id = any(array(select n.id from namespaces n, mg where n.traversal_ids && mg.ids))
      union select p.id from projects p where p.namespace_id = any(array(select id from namespaces where owner_id = ${uid})))
    select distinct rp.runner_id as id from ci_runner_projects rp join ci_runners r on r.id = rp.runner_id
     where rp.project_id = any(array(select id from mp)) and not r.is_shared`;
}

export function ownedRunnerIds(ctx: RequestCtx): Promise<number[]> {
  const user = ctx.user;
  if (!user) return Promise.resolve([]);
  let hit = ctx.memo.get('ownedRunnerIds') as Promise<number[]> | undefined;
  if (!hit) {
    hit = sqlRows<{ id: number }>(ctx.em, ownedRunnerIdsSql(user)).then((rows) => rows.map((r) => Number(r.id)));
    ctx.memo.set('ownedRunnerIds', hit);
  }
  return hit;
}

export async function ownsRunner(ctx: RequestCtx, runnerId: number): Promise<boolean> {
  return (await ownedRunnerIds(ctx)).includes(runnerId);
}

/** After enabling, disabling or deleting runners. */
export function forgetOwnedRunners(ctx: RequestCtx): void {
  ctx.memo.delete('ownedRunnerIds');
}
