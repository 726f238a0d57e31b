import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { lightEntity, sqlRows } from '../../core/db/sql';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { NotFoundError, ValidationError } from '../../core/errors/domain-errors';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import { recordAudit, type AuditEntry } from '../../core/events/audit';
import { offsetPage, offsetPagesByKey, type ListQuery, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { lockEmailAddress } from './email-address-lock';
import { Email } from './email.entity';
import type { CreateEmailInput } from './email.inputs';
import { longerThan } from '../../core/validation/char-length';

/** The user an address belongs to (the users module finds it and checks who may act on it). */
export type EmailOwner = { id: number; username: string };

/**
 * An SQL predicate with one parameter, the address: some user has it as primary address. The users
 * table is the users module's, so the users module passes it in (docs/architecture.md, "Tables").
 */
export type PrimaryEmailInUse = string;

/** GitLab 10.3's Email model (app/models/email.rb), Emails::CreateService / DestroyService, and the routes of lib/api/users.rb. */

/** Devise 4.2's default email_regexp (GitLab 10.3 keeps it), Ruby's \s spelt out. */
const EMAIL_FORMAT = /^[^@ \t\r\n\f\v]+@[^@ \t\r\n\f\v]+$/;

/** `Email#email=`: `value.downcase.strip`. */
export const normalizeEmail = (value: string): string =>
  value
    .toLowerCase()
    .replace(/^[\t\n\v\f\r ]+/, '')
    .replace(/[\t\n\v\f\r \0]+$/, '');

/**
 * The model's validations in its order: presence, uniqueness among secondary addresses, format, then
 * `unique_email` (no user has it as primary address); both "taken" messages are GitLab's. Beyond
 * GitLab: more than 255 characters is `is too long` (GitLab's varchar column failed with a 500).
 */
async function validate(em: RequestCtx['em'], email: string, primaryInUse: PrimaryEmailInUse): Promise<void> {
  const bag = new FieldErrorBag();
  if (/^\s*$/u.test(email)) bag.add('email', MSG.blank);
  const [row] = await sqlRows<{ secondary: boolean; primary: boolean }>(
    em,
    `select exists(select 1 from emails where lower(email) = lower(?)) as secondary,
            ${primaryInUse} as primary`,
    [email, email],
  );
  if (row.secondary) bag.add('email', MSG.taken);
  if (!EMAIL_FORMAT.test(email)) bag.add('email', 'is invalid');
  if (longerThan(email, 255)) bag.add('email', MSG.tooLong);
  if (row.primary) bag.add('email', MSG.taken);
  if (!bag.empty) throw new ValidationError(bag.errors);
}

/** Users' secondary addresses by id (GitLab: `paginate(user.emails)`), on the (user_id, id) index; the caller adds which users. */
function emailQuery(ctx: RequestCtx): ListQuery<Email> {
  return {
    select: 'e.*',
    from: 'emails e',
    where: [],
    params: [],
    orderBy: 'e.id',
    dir: 'asc',
    id: 'e.id',
    map: (r: Record<string, unknown>) => lightEntity(ctx.em, Email, r),
  };
}

function listOf(ctx: RequestCtx, userId: number, args: PageInput): Promise<Page<Email>> {
  return offsetPage(ctx.em, { ...emailQuery(ctx), where: ['e.user_id = ?'], params: [userId] }, args);
}

async function findOwned(ctx: RequestCtx, user: EmailOwner, emailId: number): Promise<Email> {
  const email = await ctx.em.findOne(Email, { id: emailId, userId: user.id });
  if (!email) throw new NotFoundError('Email');
  return email;
}

/** An address's audit events: on its user (entity User), the address as target. */
const emailAudit = (user: EmailOwner, e: Email): Omit<AuditEntry, 'action'> => ({
  entityType: 'User',
  entityId: user.id,
  entityPath: user.username,
  targetType: 'Email',
  targetId: e.id,
  targetDetails: e.email,
});

/** Stored unconfirmed: GitLab 10.3 mails a confirmation link (devise confirmable); this service sends no mail. */
async function add(
  ctx: RequestCtx,
  user: EmailOwner,
  input: CreateEmailInput,
  primaryInUse: PrimaryEmailInUse,
): Promise<Email> {
  const address = normalizeEmail(input.email);
  await validate(ctx.em, address, primaryInUse);
  const now = ctx.clock.now();
  const email = Object.assign(new Email(), { userId: user.id, email: address, createdAt: now, updatedAt: now });
  // A concurrent add of the same address loses on the unique lower(email) index with the model's message.
  await onUniqueViolation(
    () =>
      ctx.em.transactional(async (tx) => {
        // A parallel write of the address as someone's primary one: the lock orders the two, the check again sees the first.
        await lockEmailAddress(tx, address);
        await validate(tx, address, primaryInUse);
        tx.persist(email);
        await tx.flush();
        await recordAudit(ctx, tx, [{ ...emailAudit(user, email), action: { add: 'email' } }]);
      }),
    () => new ValidationError({ email: [MSG.taken] }),
  );
  return email;
}

async function remove(ctx: RequestCtx, user: EmailOwner, emailId: number): Promise<boolean> {
  const email = await findOwned(ctx, user, emailId);
  await ctx.em.transactional(async (tx) => {
    await claimForDelete(ctx, tx, byId('emails', email.id, 'Email'));
    await tx.nativeDelete(Email, { id: email.id });
    await recordAudit(ctx, tx, [{ ...emailAudit(user, email), action: { remove: 'email' } }]);
  });
  return true;
}

export const emailService = {
  /** GET /users/:id/emails (admin). */
  listForUser: (ctx: RequestCtx, user: EmailOwner, args: PageInput) => listOf(ctx, user.id, args),
  /** `User.emails` of many users: one bounded count and one page statement per argument set. */
  listForUsers: (ctx: RequestCtx, userIds: number[], args: PageInput): Promise<Map<number, Page<Email>>> =>
    offsetPagesByKey(ctx.em, emailQuery(ctx), 'e.user_id', userIds, args),
  /** GET /user/emails. */
  listOwn: (ctx: RequestCtx, args: PageInput) => listOf(ctx, requireUser(ctx).id, args),
  /** GET /user/emails/:email_id: another user's address is `404 Email Not Found` as a missing one. */
  getOwn: (ctx: RequestCtx, emailId: number) => findOwned(ctx, requireUser(ctx), emailId),
  addForUser: add,
  addOwn: (ctx: RequestCtx, input: CreateEmailInput, primaryInUse: PrimaryEmailInUse) =>
    add(ctx, requireUser(ctx), input, primaryInUse),
  removeForUser: remove,
  removeOwn: (ctx: RequestCtx, emailId: number) => remove(ctx, requireUser(ctx), emailId),
};

/** Predicate with two parameters (an address, a user id): another user has it as secondary address. */
export const secondaryEmailInUseByOther = () =>
  'exists(select 1 from emails where lower(email) = lower(?) and user_id <> ?)';
