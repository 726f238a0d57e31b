import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { isUniqueViolation, lightEntity, sqlRows } from '../../core/db/sql';
import { checkOwnerLimit } from '../../core/db/owner-limit';
import { recordAudit, type AuditEntry } from '../../core/events/audit';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/errors/domain-errors';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import { offsetPage, offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import type { Page, PageArgs } from '../../core/pagination/page';
import { policy } from '../access';
import { userService } from '../users';
import type { User } from '../users';
import { GpgKey } from './gpg-key.entity';
import type { CreateGpgKeyInput } from './gpg-key.inputs';
import { ARMOR_BEGIN, ARMOR_END, hasArmorFormat } from './openpgp-armor';
import { readPublicKey, type PublicKeyInfo } from './openpgp-key';
import { KEY_MAX_LENGTH, KEYS_PER_USER_MAX } from './gpg-key.limits';

/** GitLab 10.3's GpgKey format message (app/models/gpg_key.rb). */
export const KEY_FORMAT_MSG = `is invalid. A valid public GPG key begins with '${ARMOR_BEGIN}' and ends with '${ARMOR_END}'`;

const BLANKS = new Set(['\t', '\n', '\v', '\f', '\r', ' ']);
/**
 * Ruby's String#strip (GitLab's `key=`): ASCII blanks at both ends, NULs too at the end. A loop, not
 * `/\s+$/`: that regular expression is quadratic on a long run of blanks followed by anything else.
 */
function rubyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && BLANKS.has(s[start])) start++;
  while (end > start && (BLANKS.has(s[end - 1]) || s[end - 1] === '\0')) end--;
  return s.slice(start, end);
}

/**
 * Whose keys: the caller, or a user by id (404 `User Not Found`) for administrators. GitLab 10.3 checks
 * `authenticated_as_admin!` inside those endpoints, after their parameters: 401, then 403, here.
 */
async function ownerOf(ctx: RequestCtx, userId?: number): Promise<User> {
  const caller = requireUser(ctx);
  if (userId === undefined) return caller;
  if (!policy.isAdmin(caller)) throw new ForbiddenError();
  return userService.get(ctx, userId);
}

/**
 * Users' GPG keys by id; the caller adds which users. The key text (up to 64 KiB a row) is read only
 * when the list shows it (`withKey`).
 */
function keyQuery(ctx: RequestCtx, withKey: boolean): ListQuery<GpgKey> {
  return {
    select: withKey ? 'k.*' : 'k.id, k.user_id, k.fingerprint, k.primary_keyid, k.created_at, k.updated_at',
    from: 'gpg_keys k',
    where: [],
    params: [],
    orderBy: 'k.id',
    dir: 'asc',
    id: 'k.id',
    map: (r: Record<string, unknown>) => lightEntity(ctx.em, GpgKey, r),
  };
}

/** GitLab `paginate(user.gpg_keys)`: no order given, here the id (the user_id index, then the page). */
async function list(
  ctx: RequestCtx,
  args: PageArgs & { userId?: number },
  opts: { withKey: boolean },
): Promise<Page<GpgKey>> {
  const user = await ownerOf(ctx, args.userId);
  return offsetPage(ctx.em, { ...keyQuery(ctx, opts.withKey), where: ['k.user_id = ?'], params: [user.id] }, args);
}

/** `User.gpgKeys` of many users: one bounded count and one page statement per argument set. */
function listForUsers(
  ctx: RequestCtx,
  userIds: number[],
  args: PageArgs,
  opts: { withKey: boolean },
): Promise<Map<number, Page<GpgKey>>> {
  return offsetPagesByKey(ctx.em, keyQuery(ctx, opts.withKey), 'k.user_id', userIds, args);
}

async function find(ctx: RequestCtx, user: User, keyId: number): Promise<GpgKey> {
  const key = await ctx.em.findOne(GpgKey, { id: keyId, userId: user.id });
  if (!key) throw new NotFoundError('GPG Key');
  return key;
}

async function get(ctx: RequestCtx, keyId: number, userId?: number): Promise<GpgKey> {
  return find(ctx, await ownerOf(ctx, userId), keyId);
}

/**
 * GitLab's validations in their order: key present, unique (the text), of the armor format; only when
 * the key passes, fingerprint and primary key id present (gpg read a key from it) and unique.
 * Two texts with one fingerprint are the same key: an equal stored text is found by fingerprint.
 */
async function validate(ctx: RequestCtx, key: string): Promise<PublicKeyInfo> {
  if (key.length > KEY_MAX_LENGTH)
    throw new ValidationError({ key: [`is too long (maximum is ${KEY_MAX_LENGTH} characters)`] });
  const bag = new FieldErrorBag();
  if (key === '') bag.add('key', MSG.blank);
  if (!hasArmorFormat(key)) bag.add('key', KEY_FORMAT_MSG);
  if (!bag.empty) throw new ValidationError(bag.errors);
  const info = readPublicKey(key);
  if (!info) throw new ValidationError({ fingerprint: [MSG.blank], primary_keyid: [MSG.blank] });
  const taken = await sqlRows<{ key: string; fingerprint: string; primary_keyid: string }>(
    ctx.em,
    'select key, fingerprint, primary_keyid from gpg_keys where fingerprint = ? or primary_keyid = ?',
    [info.fingerprint, info.keyId],
  );
  if (taken.some((r) => r.key === key)) throw new ValidationError({ key: [MSG.taken] });
  if (taken.some((r) => r.fingerprint === info.fingerprint)) bag.add('fingerprint', MSG.taken);
  if (taken.some((r) => r.primary_keyid === info.keyId)) bag.add('primary_keyid', MSG.taken);
  if (!bag.empty) throw new ValidationError(bag.errors);
  return info;
}

async function create(ctx: RequestCtx, input: CreateGpgKeyInput, userId?: number): Promise<GpgKey> {
  const user = await ownerOf(ctx, userId);
  const text = rubyStrip(input.key);
  const info = await validate(ctx, text);
  const now = ctx.clock.now();
  const key = Object.assign(new GpgKey(), {
    userId: user.id,
    key: text,
    fingerprint: info.fingerprint,
    primaryKeyid: info.keyId,
    createdAt: now,
    updatedAt: now,
  });
  try {
    await ctx.em.transactional(async (tx) => {
      await checkOwnerLimit(tx, {
        table: 'gpg_keys',
        ownerColumn: 'user_id',
        ownerId: user.id,
        max: KEYS_PER_USER_MAX,
        what: 'GPG keys',
      });
      tx.persist(key);
      await tx.flush();
      await recordAudit(ctx, tx, [{ ...audited(user, key), action: { add: 'gpg_key' } }]);
    });
  } catch (e) {
    // A concurrent add of the same key won the unique index: the answer a later request would get.
    if (isUniqueViolation(e)) throw new ValidationError({ fingerprint: [MSG.taken], primary_keyid: [MSG.taken] });
    throw e;
  }
  return key;
}

/**
 * DELETE and revoke: GitLab 10.3's revoke also marks the key's commit signatures unverified, then
 * destroys the key; there are no signatures here, so both remove it (revoke answers 202).
 */
async function remove(ctx: RequestCtx, keyId: number, userId?: number): Promise<boolean> {
  const user = await ownerOf(ctx, userId);
  const key = await find(ctx, user, keyId);
  await ctx.em.transactional(async (tx) => {
    await claimForDelete(ctx, tx, byId('gpg_keys', key.id, 'GPG Key'));
    await sqlRows(tx, 'delete from gpg_keys where id = ?', [key.id]);
    await recordAudit(ctx, tx, [{ ...audited(user, key), action: { remove: 'gpg_key' } }]);
  });
  return true;
}

/** A key's audit events are its user's (entity User), the key named by its fingerprint. */
const audited = (user: User, key: GpgKey): Omit<AuditEntry, 'action'> => ({
  entityType: 'User',
  entityId: user.id,
  entityPath: user.username,
  targetType: 'GpgKey',
  targetId: key.id,
  targetDetails: key.fingerprint,
});

/** GET /users/:id/gpg_keys/:key_id (current GitLab, 13.5): one key of a user, for any caller (public keys). */
async function getForUser(ctx: RequestCtx, userId: number, keyId: number): Promise<GpgKey> {
  return find(ctx, await userService.get(ctx, userId), keyId);
}

export const gpgKeyService = { list, listForUsers, get, getForUser, create, remove, revoke: remove };
