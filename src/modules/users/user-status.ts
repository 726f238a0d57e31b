import DataLoader from 'dataloader';
import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { intArray } from '../access';
import { sqlRows } from '../../core/db/sql';
import { pgTime } from '../../core/db/pg-time';
import { ParamError, ValidationError } from '../../core/errors/domain-errors';
import { longerThan } from '../../core/validation/char-length';
import type { User } from './user.entity';

/**
 * A user's status (GitLab 11.0's user status API, GitLab's GraphQL `User.status`; docs/rest.md#user-status):
 * emoji, message, availability and the time it clears itself. A status past its `clear_status_at` reads as
 * none (GitLab clears them with a cron job; here the read leaves them out, no job needed).
 */
export enum Availability {
  NOT_SET = 'NOT_SET',
  BUSY = 'BUSY',
}
registerEnumType(Availability, { name: 'AvailabilityEnum', description: "A user's availability (GitLab's)." });
const AVAILABILITY_VALUES = [Availability.NOT_SET, Availability.BUSY];

/** GitLab's UserStatus::CLEAR_STATUS_QUICK_OPTIONS. */
export const CLEAR_STATUS_AFTER: Record<string, number> = {
  '30_minutes': 30 * 60_000,
  '3_hours': 3 * 3_600_000,
  '8_hours': 8 * 3_600_000,
  '1_day': 86_400_000,
  '3_days': 3 * 86_400_000,
  '7_days': 7 * 86_400_000,
  '30_days': 30 * 86_400_000,
};
const DEFAULT_EMOJI = 'speech_balloon';

@ObjectType('UserStatus')
export class UserStatusType {
  @Field(() => String, { nullable: true, description: 'An emoji name, as `speech_balloon`.' }) emoji!: string | null;
  @Field(() => String, { nullable: true }) message!: string | null;
  @Field(() => String, { nullable: true, description: 'The message as HTML (escaped text).' })
  messageHtml!: string | null;
  @Field(() => Availability, { nullable: true }) availability!: Availability | null;
  @Field(() => Date, { nullable: true, description: 'When the status clears itself; null: never.' })
  clearStatusAt!: Date | null;
}

@InputType('SetUserStatusInput')
export class SetUserStatusInput {
  @Field(() => String, { nullable: true, description: 'Default speech_balloon when a message is set.' }) emoji?: string;
  @Field(() => String, { nullable: true, description: 'At most 100 characters.' }) message?: string;
  @Field(() => String, { nullable: true, description: 'not_set or busy.' }) availability?: string;
  @Field(() => String, {
    nullable: true,
    description: '30_minutes, 3_hours, 8_hours, 1_day, 3_days, 7_days or 30_days.',
  })
  clearStatusAfter?: string;
}

/** No status: every key null (GitLab presents `{}` with the status entity). */
export const NO_STATUS: UserStatusType = {
  emoji: null,
  message: null,
  messageHtml: null,
  availability: null,
  clearStatusAt: null,
};

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

type Row = {
  user_id: number;
  emoji: string;
  message: string | null;
  availability: number;
  clear_status_at: Date | null;
};
const view = (r: Row): UserStatusType => ({
  emoji: r.emoji,
  message: r.message,
  messageHtml: r.message === null ? null : escapeHtml(r.message),
  availability: AVAILABILITY_VALUES[Number(r.availability)] ?? Availability.NOT_SET,
  clearStatusAt: r.clear_status_at === null ? null : pgTime(r.clear_status_at),
});

/** The current statuses of these users (one query per batch). */
async function statusesOf(ctx: RequestCtx, ids: readonly number[]): Promise<UserStatusType[]> {
  const rows = await sqlRows<Row>(
    ctx.em,
    `select * from user_statuses where user_id = any(${intArray(ids)}) and (clear_status_at is null or clear_status_at > ?)`,
    [ctx.clock.now()],
  );
  const by = new Map(rows.map((r) => [Number(r.user_id), view(r)]));
  return ids.map((id) => by.get(id) ?? NO_STATUS);
}

export function userStatusLoaders(ctx: RequestCtx) {
  return { userStatus: new DataLoader<number, UserStatusType>((ids) => statusesOf(ctx, ids)) };
}
type UserStatusLoaders = ReturnType<typeof userStatusLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends UserStatusLoaders {}
}

/**
 * PUT /user/status (GitLab's Users::SetStatusService): no emoji, no message and no availability (or
 * not_set) clears the status; otherwise every attribute is replaced, a missing emoji being speech_balloon.
 */
async function set(ctx: RequestCtx, input: SetUserStatusInput): Promise<UserStatusType> {
  const user: User = requireUser(ctx);
  const availability = input.availability ?? 'not_set';
  const level = ['not_set', 'busy'].indexOf(availability);
  if (level < 0) throw ParamError.notInSet('availability');
  if (input.clearStatusAfter != null && !(input.clearStatusAfter in CLEAR_STATUS_AFTER))
    throw ParamError.notInSet('clear_status_after');
  const emoji = input.emoji ?? '';
  const message = input.message ?? '';
  if (emoji === '' && message === '' && level === 0) {
    await sqlRows(ctx.em, 'delete from user_statuses where user_id = ?', [user.id]);
    return NO_STATUS;
  }
  const problems: Record<string, string[]> = {};
  if (emoji !== '' && !/^[a-z0-9_+-]{1,64}$/.test(emoji)) problems.emoji = ['is not a valid emoji name'];
  if (longerThan(message, 100)) problems.message = ['is too long (maximum is 100 characters)'];
  if (Object.keys(problems).length) throw new ValidationError(problems);
  const clearAt =
    input.clearStatusAfter == null
      ? null
      : new Date(ctx.clock.now().getTime() + CLEAR_STATUS_AFTER[input.clearStatusAfter]);
  const [row] = await sqlRows<Row>(
    ctx.em,
    `insert into user_statuses (user_id, emoji, message, availability, clear_status_at) values (?, ?, ?, ?, ?)
     on conflict (user_id) do update set emoji = excluded.emoji, message = excluded.message,
       availability = excluded.availability, clear_status_at = excluded.clear_status_at
     returning *`,
    [user.id, emoji || DEFAULT_EMOJI, message === '' ? null : message, level, clearAt],
  );
  return view(row);
}

export const userStatusService = { set };
