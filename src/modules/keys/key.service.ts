import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { sqlRows, lightEntity } from '../../core/db/sql';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { BadRequestError, NotFoundError, ValidationError } from '../../core/errors/domain-errors';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import { recordAudit, type AuditEntry } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import { offsetPage, offsetPagesByKey, type ListQuery, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { currentSettings } from '../application-settings';
import type { User } from '../users';
import { userService } from '../users';
import { SshKey } from './key.entity';
import type { CreateSshKeyInput } from './key.inputs';
import { parseSshPublicKey, type SshKeyType, type SshPublicKey } from './ssh-public-key';
import { longerThan } from '../../core/validation/char-length';
import { checkOwnerLimit } from '../../core/db/owner-limit';
import { KEY_MAX, KEYS_PER_USER_MAX } from './key.limits';
import { keyEvent } from './key.events';

/** GitLab 10.3's Key model (app/models/key.rb) and the key routes of lib/api/users.rb and keys.rb. */

const FORBIDDEN = -1;
const KEY_TYPES: SshKeyType[] = ['rsa', 'dsa', 'ecdsa', 'ed25519'];
/** Key model: `format: { with: /\A(ssh|ecdsa)-.*\Z/ }`. */
const KEY_FORMAT = /^(ssh|ecdsa)-/;
const blank = (s: string) => /^\s*$/u.test(s);

/** `Key#key=`: line breaks removed anywhere, then Ruby's strip (the comment stays). */
export function normalizeKey(value: string): string {
  const v = value.replace(/[\n\r]/g, '');
  return blank(v) ? v : v.replace(/^[\t\n\v\f\r ]+/, '').replace(/[\t\n\v\f\r \0]+$/, '');
}

/** Array#to_sentence(two_words_connector: ' or ', last_word_connector: ', or '). */
const sentence = (w: string[]) =>
  w.length <= 2 ? w.join(' or ') : `${w.slice(0, -1).join(', ')}, or ${w[w.length - 1]}`;

/** `key_meets_restrictions`: a forbidden type (an unreadable key has none: forbidden too), or too few bits. */
async function restrictionProblem(ctx: RequestCtx, parsed: SshPublicKey | null): Promise<string | undefined> {
  const settings = await currentSettings(ctx);
  const limit = (t: SshKeyType) => Number(settings[`${t}_key_restriction`] ?? 0);
  const min = parsed ? limit(parsed.type) : FORBIDDEN;
  if (min === FORBIDDEN)
    return `type is forbidden. Must be ${sentence(KEY_TYPES.filter((t) => limit(t) !== FORBIDDEN).map((t) => t.toUpperCase()))}`;
  if (parsed && parsed.bits < min) return `must be at least ${min} bits`;
  return undefined;
}

/** The model's validations in its order (title, key, fingerprint, restrictions); the parsed key when valid. */
async function validate(ctx: RequestCtx, title: string, key: string): Promise<SshPublicKey> {
  const bag = new FieldErrorBag();
  if (blank(title)) bag.add('title', MSG.blank);
  if (longerThan(title, 255)) bag.add('title', MSG.tooLong);
  if (blank(key)) bag.add('key', MSG.blank);
  if (longerThan(key, KEY_MAX)) bag.add('key', `is too long (maximum is ${KEY_MAX} characters)`);
  if (!KEY_FORMAT.test(key)) bag.add('key', 'is invalid');
  const parsed = blank(key) ? null : parseSshPublicKey(key);
  if (parsed) {
    const [row] = await sqlRows<{ taken: boolean }>(
      ctx.em,
      'select exists(select 1 from keys where fingerprint = ?) as taken',
      [parsed.fingerprint],
    );
    if (row.taken) bag.add('fingerprint', MSG.taken);
  } else {
    bag.add('fingerprint', 'cannot be generated');
  }
  const problem = await restrictionProblem(ctx, parsed);
  if (problem) bag.add('key', problem);
  if (!bag.empty || !parsed) throw new ValidationError(bag.errors);
  return parsed;
}

/** Users' keys by id (index keys (user_id)); the caller adds which users. */
function keyQuery(ctx: RequestCtx): ListQuery<SshKey> {
  return {
    select: 'k.*',
    from: 'keys k',
    where: [],
    params: [],
    orderBy: 'k.id',
    dir: 'asc',
    id: 'k.id',
    map: (r: Record<string, unknown>) => lightEntity(ctx.em, SshKey, r),
  };
}

/** One user's keys by id (GitLab: `paginate(user.keys)`), on the (user_id, id) index. */
function listOf(ctx: RequestCtx, userId: number, args: PageInput): Promise<Page<SshKey>> {
  const q = keyQuery(ctx);
  return offsetPage(ctx.em, { ...q, where: ['k.user_id = ?'], params: [userId] }, args);
}

async function findOwned(ctx: RequestCtx, user: User, keyId: number): Promise<SshKey> {
  const key = await ctx.em.findOne(SshKey, { id: keyId, userId: user.id });
  if (!key) throw new NotFoundError('Key');
  return key;
}

/** A key's audit events: on its user (entity User), the key as target by title. */
const keyAudit = (user: User, k: SshKey): Omit<AuditEntry, 'action'> => ({
  entityType: 'User',
  entityId: user.id,
  entityPath: user.username,
  targetType: 'Key',
  targetId: k.id,
  targetDetails: k.title,
});

async function add(ctx: RequestCtx, user: User, input: CreateSshKeyInput): Promise<SshKey> {
  const keyText = normalizeKey(input.key);
  const parsed = await validate(ctx, input.title, keyText);
  const now = ctx.clock.now();
  const key = Object.assign(new SshKey(), {
    userId: user.id,
    title: input.title,
    key: keyText,
    fingerprint: parsed.fingerprint,
    fingerprintSha256: parsed.fingerprintSha256,
    createdAt: now,
    updatedAt: now,
  });
  // A concurrent add of the same key loses on the unique fingerprint index with the model's message.
  await onUniqueViolation(
    () =>
      ctx.em.transactional(async (tx) => {
        await checkOwnerLimit(tx, {
          table: 'keys',
          ownerColumn: 'user_id',
          ownerId: user.id,
          max: KEYS_PER_USER_MAX,
          what: 'SSH keys',
        });
        tx.persist(key);
        await tx.flush();
        await recordAudit(ctx, tx, [{ ...keyAudit(user, key), action: { add: 'ssh_key' } }]);
        await emitSystemEvents(ctx, tx, () => keyEvent(user, key, 'create'));
      }),
    () => new ValidationError({ fingerprint: [MSG.taken] }),
  );
  return key;
}

async function remove(ctx: RequestCtx, user: User, keyId: number): Promise<boolean> {
  const key = await findOwned(ctx, user, keyId);
  await ctx.em.transactional(async (tx) => {
    await claimForDelete(ctx, tx, byId('keys', key.id, 'Key'));
    await emitSystemEvents(ctx, tx, () => keyEvent(user, key, 'destroy'));
    await tx.nativeDelete(SshKey, { id: key.id });
    await recordAudit(ctx, tx, [{ ...keyAudit(user, key), action: { remove: 'ssh_key' } }]);
  });
  return true;
}

export const sshKeyService = {
  /** `User.sshKeys` of many users: one bounded count and one page statement per argument set. */
  listForUsers: (ctx: RequestCtx, userIds: number[], args: PageInput): Promise<Map<number, Page<SshKey>>> =>
    offsetPagesByKey(ctx.em, keyQuery(ctx), 'k.user_id', userIds, args),
  /** GET /users/:id/keys (admin). */
  async listForUser(ctx: RequestCtx, userId: number, args: PageInput): Promise<Page<SshKey>> {
    return listOf(ctx, (await userService.get(ctx, userId)).id, args);
  },
  /** GET /users/:id/keys/:key_id (current GitLab): a user's public key, for any caller, as GitLab serves it. */
  async getForUser(ctx: RequestCtx, userId: number, keyId: number): Promise<SshKey> {
    return findOwned(ctx, await userService.get(ctx, userId), keyId);
  },
  /** GET /user/keys. */
  listOwn: (ctx: RequestCtx, args: PageInput) => listOf(ctx, requireUser(ctx).id, args),
  /** GET /user/keys/:key_id: another user's key is `404 Key Not Found` as a missing one. */
  getOwn: (ctx: RequestCtx, keyId: number) => findOwned(ctx, requireUser(ctx), keyId),
  /** GET /keys/:id (admin): GitLab's `Key.find`, whose miss is the generic `404 Not found`. */
  async get(ctx: RequestCtx, id: number): Promise<SshKey> {
    const key = await ctx.em.findOne(SshKey, { id });
    if (!key) throw new NotFoundError();
    return key;
  },
  /**
   * GET /keys?fingerprint= (later GitLab's KeysFinder): `SHA256:<base64>` (or `sha256:`) or MD5 colon hex;
   * anything else is 400 `Failed to return the key`, no match `404 Key Not Found`.
   */
  async findByFingerprint(ctx: RequestCtx, fingerprint: string): Promise<SshKey> {
    const sha = /^sha256:/i.test(fingerprint) ? fingerprint.replace(/^sha256:/i, '') : null;
    const valid =
      sha !== null ? Buffer.from(sha, 'base64').length === 32 : /^([0-9a-f]{2}:){15}[0-9a-f]{2}/i.test(fingerprint);
    if (!valid) throw new BadRequestError('Failed to return the key');
    const key = await ctx.em.findOne(SshKey, sha !== null ? { fingerprintSha256: sha } : { fingerprint }, {
      orderBy: { id: 'asc' },
    });
    if (!key) throw new NotFoundError('Key');
    return key;
  },
  async addForUser(ctx: RequestCtx, userId: number, input: CreateSshKeyInput): Promise<SshKey> {
    return add(ctx, await userService.get(ctx, userId), input);
  },
  addOwn: (ctx: RequestCtx, input: CreateSshKeyInput) => add(ctx, requireUser(ctx), input),
  async removeForUser(ctx: RequestCtx, userId: number, keyId: number): Promise<boolean> {
    return remove(ctx, await userService.get(ctx, userId), keyId);
  },
  removeOwn: (ctx: RequestCtx, keyId: number) => remove(ctx, requireUser(ctx), keyId),
};
