import type { RequestCtx } from '../../core/context/request-ctx';
import { forgetCredentials } from '../../core/auth/credential-cache';
import { sqlRows } from '../../core/db/sql';
import { recordAudit } from '../../core/events/audit';
import { ForbiddenError, NotFoundError } from '../../core/errors/domain-errors';
import { userAudit } from './user.service';

/**
 * A user's `state` and the admin transitions between them (docs/rest.md#user-states; GitLab's
 * User state machine and its Users::*Service classes). Only `active` users authenticate: a blocked,
 * banned or deactivated user's tokens stop working at once.
 */
export type UserState = 'active' | 'blocked' | 'banned' | 'deactivated';

/** GitLab's `blocked?`: an admin block and a ban both count as blocked. */
const BLOCKED: readonly string[] = ['blocked', 'banned'];

/** GitLab's default `deactivate_dormant_users_period`: only a user dormant this long may be deactivated. */
export const DORMANT_DAYS = 90;

interface Transition {
  from: readonly UserState[];
  to: UserState;
  /** The audit event's message (GitLab's AuditEventService custom messages). */
  audit: string;
  /** Only users inactive since before this many days (deactivation). */
  dormantDays?: number;
  /** The answer when the transition does not apply to the user's current state: a value or an error. */
  otherwise: (state: string) => boolean | null | Error;
}

/**
 * Applies `t` as one conditional UPDATE (a concurrent transition cannot be overwritten), with its audit
 * event in the same transaction. When no row changed, the answer comes from the state read after it.
 */
async function apply(ctx: RequestCtx, id: number, t: Transition): Promise<boolean | null> {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - (t.dormantDays ?? 0) * 86_400_000).toISOString().slice(0, 10);
  const changed = await ctx.em.transactional(async (em) => {
    const rows = await sqlRows<{ id: number; username: string }>(
      em,
      `update users set state = ?, updated_at = ? where id = ? and state in (${t.from.map(() => '?').join(', ')})
       ${t.dormantDays ? 'and (last_activity_on is null or last_activity_on <= ?::date)' : ''} returning id, username`,
      [t.to, now, id, ...t.from, ...(t.dormantDays ? [cutoff] : [])],
    );
    if (rows.length === 0) return false;
    await recordAudit(ctx, em, [
      { ...userAudit({ id, username: rows[0].username }), action: { customMessage: t.audit } },
    ]);
    return true;
  });
  if (changed) {
    forgetCredentials(ctx.cache, id);
    return true;
  }
  const [row] = await sqlRows<{ state: string }>(ctx.em, 'select state from users where id = ?', [id]);
  if (!row) throw new NotFoundError('User');
  const answer = t.otherwise(row.state);
  if (answer instanceof Error) throw answer;
  return answer;
}

const message = (text: string) => ForbiddenError.withMessage(text);

export const userState = {
  /** POST /users/:id/block (GitLab 10.3): true when blocked now; false for a user already blocked or banned. */
  block: (ctx: RequestCtx, id: number) =>
    apply(ctx, id, { from: ['active', 'deactivated'], to: 'blocked', audit: 'Blocked user', otherwise: () => false }),

  /**
   * POST /users/:id/unblock (GitLab 10.3): true when active now; false for an active user. A deactivated
   * user is activated, not unblocked (current GitLab's 403), and a banned one unbanned (false here).
   */
  unblock: (ctx: RequestCtx, id: number) =>
    apply(ctx, id, {
      from: ['blocked'],
      to: 'active',
      audit: 'Unblocked user',
      otherwise: (s) =>
        s === 'deactivated' ? new ForbiddenError('Deactivated users cannot be unblocked by the API') : false,
    }),

  /** POST /users/:id/deactivate: true when deactivated now; null when it already was (GitLab's bare `break`). */
  deactivate: (ctx: RequestCtx, id: number) =>
    apply(ctx, id, {
      from: ['active'],
      to: 'deactivated',
      audit: 'Deactivated user',
      dormantDays: DORMANT_DAYS,
      otherwise: (s) =>
        s === 'deactivated'
          ? null
          : BLOCKED.includes(s)
            ? message('Error occurred. A blocked user cannot be deactivated')
            : message(
                `The user you are trying to deactivate has been active in the past ${DORMANT_DAYS} days and cannot be deactivated`,
              ),
    }),

  /** POST /users/:id/activate: true when a deactivated user is active now; false for an active one. */
  activate: (ctx: RequestCtx, id: number) =>
    apply(ctx, id, {
      from: ['deactivated'],
      to: 'active',
      audit: 'Activated user',
      otherwise: (s) =>
        BLOCKED.includes(s) ? new ForbiddenError('A blocked user must be unblocked to be activated') : false,
    }),

  /** POST /users/:id/ban: only an active user can be banned. */
  ban: (ctx: RequestCtx, id: number) =>
    apply(ctx, id, {
      from: ['active'],
      to: 'banned',
      audit: 'Banned user',
      otherwise: (s) => message(`You cannot ban ${s} users.`),
    }),

  /** POST /users/:id/unban: only a banned user can be unbanned. */
  unban: (ctx: RequestCtx, id: number) =>
    apply(ctx, id, {
      from: ['banned'],
      to: 'active',
      audit: 'Unbanned user',
      otherwise: (s) => message(`You cannot unban ${s} users.`),
    }),
};
