import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { lightEntity, sqlRows } from '../../core/db/sql';
import { ForbiddenError, ParamError } from '../../core/errors/domain-errors';
import { offsetPage, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { policy } from '../access';
import { User } from './user.entity';

/**
 * `last_activity_on`: the day a user last made an authenticated request (GitLab records it once a
 * day per user, Gitlab::UserActivities; later GitLab also on API requests). Cheap by construction:
 * the token lookup already read the user's row, so a user seen today costs nothing; otherwise one
 * conditional UPDATE, at most once per user, day and instance (the map below), sent beside the
 * request's own work and never awaited by it. A failed write is dropped (the next day writes again).
 */
const written = new Map<number, string>();
let writtenDay = '';
const pending = new Set<Promise<void>>();

/** The UTC day of `now`, YYYY-MM-DD. */
const dayOf = (now: Date) => now.toISOString().slice(0, 10);

export function noteActivity(em: EntityManager, user: User, now: Date): void {
  const day = dayOf(now);
  if (user.lastActivityOn === day) return;
  if (day !== writtenDay) {
    // A new day: yesterday's entries can only be stale, so the map holds today's active users only.
    written.clear();
    writtenDay = day;
  }
  if (written.get(user.id) === day) return;
  written.set(user.id, day);
  const write = sqlRows(
    em,
    'update users set last_activity_on = ?::date where id = ? and last_activity_on is distinct from ?::date',
    [day, user.id, day],
  )
    .then(() => undefined)
    .catch(() => {
      written.delete(user.id);
    });
  pending.add(write);
  void write.finally(() => pending.delete(write));
}

/** Resolves when the activity writes started so far have ended (tests, graceful shutdown). */
export async function activityWritesSettled(): Promise<void> {
  await Promise.all([...pending]);
}

/** Forgets what this instance wrote (tests that rewind the clock or reset the database). */
export function forgetActivityWrites(): void {
  written.clear();
  writtenDay = '';
}

/**
 * GitLab 10.3's `from` (a DateTime, default 6 months ago) as the first day whose midnight (UTC) is
 * not before it: `last_activity_on >= from` compares the day's start with the instant.
 */
function firstDay(from: string | null | undefined, now: Date): string {
  let at: Date;
  if (from === null || from === undefined || from === '') {
    at = new Date(now);
    at.setUTCMonth(at.getUTCMonth() - 6);
  } else {
    at = new Date(/^\d{4}-\d{2}-\d{2}$/.test(from) ? `${from}T00:00:00Z` : from);
    if (Number.isNaN(at.getTime())) throw ParamError.invalid('from');
  }
  const day = dayOf(at);
  return at.getTime() === Date.parse(`${day}T00:00:00Z`)
    ? day
    : dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000));
}

/** GET /user/activities (admin, checked after `from` as in 10.3): users active on or after `from`, by day then id. */
export async function listActivities(ctx: RequestCtx, args: PageInput & { from?: string | null }): Promise<Page<User>> {
  const since = firstDay(args.from, ctx.clock.now());
  if (!policy.isAdmin(requireUser(ctx))) throw new ForbiddenError();
  return offsetPage(
    ctx.em,
    {
      select: 'u.*',
      from: 'users u',
      where: ['u.last_activity_on >= ?::date'],
      params: [since],
      orderBy: 'u.last_activity_on',
      dir: 'asc',
      id: 'u.id',
      map: (r) => lightEntity(ctx.em, User, r),
    },
    args,
  );
}
