import type { RequestCtx } from '../../core/context/request-ctx';
import { recordAudit, type AuditEntry } from '../../core/events/audit';
import { lightEntity, sqlRows } from '../../core/db/sql';
import { BadRequestError, ForbiddenError, ParamError } from '../../core/errors/domain-errors';
import { parseTimestamp } from '../../core/params/timestamp-param';
import { projectAuditEntity } from '../projects';
import { Environment } from './environment.entity';
import { environmentPolicy } from './environment.policy';
import { projectFor } from './environment.service';
import { projectService } from '../projects';

/**
 * Bulk clean-up of a project's environments (current GitLab's environments API,
 * https://docs.gitlab.com/ee/api/environments.html): stop the stale ones, delete stopped review apps.
 * GitLab hands both to background workers; here they happen in the request, in one transaction with
 * their audit events. There are no protected environments here, so none is skipped or refused.
 */

const DAY = 86_400_000;
const STOP_STALE_DONE = 'Successfully scheduled stale environments to stop';
const NOTHING_TO_DELETE =
  'No environments found for scheduled deletion. Either your query did not match any environments (default parameters match environments that are 30 days or older), or you have insufficient permissions to delete matching environments.';

const auditOf = (entity: Awaited<ReturnType<typeof projectAuditEntity>>, id: number, name: string) =>
  ({ ...entity, targetType: 'Environment', targetId: id, targetDetails: name }) as const;

/**
 * POST /projects/:id/environments/stop_stale: stops the available environments last updated before
 * `before` (GitLab also skips those deployed to since; deployments are not served here). `before` must
 * lie between 10 years and 1 week ago (GitLab's 400 "Invalid Date").
 */
async function stopStale(ctx: RequestCtx, projectId: string, before: string): Promise<{ message: string }> {
  const at = parseTimestamp('before', before);
  const project = await projectFor(ctx, projectId, 'stop');
  const now = ctx.clock.now();
  const tenYearsAgo = new Date(now);
  tenYearsAgo.setUTCFullYear(now.getUTCFullYear() - 10);
  if (at < tenYearsAgo || at.getTime() > now.getTime() - 7 * DAY)
    throw new BadRequestError('400 Bad request - Invalid Date');
  const entity = await projectAuditEntity(ctx, project.id);
  await ctx.em.transactional(async (em) => {
    const stopped = await sqlRows<{ id: number; name: string }>(
      em,
      `update environments set state = 'stopped', updated_at = ?
        where project_id = ? and state = 'available' and updated_at < ? returning id, name`,
      [now, project.id, at],
    );
    const events: AuditEntry[] = stopped.map((e) => ({
      ...auditOf(entity, Number(e.id), e.name),
      action: { change: 'state', from: 'available', to: 'stopped' },
    }));
    if (events.length) await recordAudit(ctx, em, events);
  });
  return { message: STOP_STALE_DONE };
}

export interface ReviewAppsArgs {
  before?: string | null;
  limit?: number | null;
  dryRun?: boolean | null;
}

/**
 * DELETE /projects/:id/environments/review_apps (GitLab's ScheduleToDeleteReviewAppsService): the
 * stopped environments of the `review/` folder created before `before` (default 30 days ago), oldest
 * first, at most `limit` (1..1000, default 100). A dry run (the default) deletes nothing; otherwise
 * they are deleted now (GitLab deletes them a week later). Nothing matching: GitLab's 400.
 */
async function deleteReviewApps(
  ctx: RequestCtx,
  projectId: string,
  args: ReviewAppsArgs,
): Promise<{ scheduledEntries: Environment[]; unprocessableEntries: Environment[] }> {
  // Parameters first (Grape), then the project (404) and the rules (403).
  const limit = args.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw ParamError.notInSet('limit');
  const now = ctx.clock.now();
  const before = args.before == null ? new Date(now.getTime() - 30 * DAY) : parseTimestamp('before', args.before);
  const project = await projectFor(ctx, projectId, 'read');
  const level = await projectService.accessLevel(ctx, project);
  if (!environmentPolicy.canEnvironment(ctx.user, level, project.jobsEnabled, 'destroy'))
    throw new ForbiddenError('You do not have permission to destroy environments in this project');
  const dryRun = args.dryRun ?? true;
  const entity = await projectAuditEntity(ctx, project.id);
  const select = `select * from environments where project_id = ? and state = 'stopped' and name like 'review/%'
      and created_at < ? order by created_at, id limit ?`;
  const rows = await ctx.em.transactional(async (em) => {
    if (dryRun) return sqlRows<Record<string, unknown>>(em, select, [project.id, before, limit]);
    const deleted = await sqlRows<Record<string, unknown>>(
      em,
      // The ids are locked and fixed once, in an init plan: a rescanned `in (… limit … for update)`
      // subquery skips the rows this statement has already deleted and returns the next ones.
      `delete from environments where id = any(array(${select.replace('select *', 'select id')} for update)) returning *`,
      [project.id, before, limit],
    );
    deleted.sort(
      (a, b) => +new Date(a.created_at as string) - +new Date(b.created_at as string) || Number(a.id) - Number(b.id),
    );
    const events: AuditEntry[] = deleted.map((e) => ({
      ...auditOf(entity, Number(e.id), String(e.name)),
      action: { remove: 'environment' },
    }));
    if (events.length) await recordAudit(ctx, em, events);
    return deleted;
  });
  if (rows.length === 0)
    throw new BadRequestError(NOTHING_TO_DELETE, {
      scheduled_entries: [],
      unprocessable_entries: [],
      message: NOTHING_TO_DELETE,
    });
  return { scheduledEntries: rows.map((r) => lightEntity(ctx.em, Environment, r)), unprocessableEntries: [] };
}

export const environmentCleanup = { stopStale, deleteReviewApps };
