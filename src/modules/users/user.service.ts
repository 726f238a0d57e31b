import { randomBytes } from 'node:crypto';
import { ruleProblems } from '../../rest/param-rules';
import type { ParamRule } from '../../rest/route';
import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { changes, recordAudit, type AuditEntry } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import { parseTimestamp } from '../../core/params/timestamp-param';
import { policy } from '../access';
import { lockEmailAddress, primaryEmailChanged, secondaryEmailInUseByOther } from '../emails';
import { MAX_PER_PAGE } from '../../core/pagination/page';
import { lightEntity, likeEscape, pgArray, sqlEntities, sqlRows } from '../../core/db/sql';
import { forgetCredentials } from '../../core/auth/credential-cache';
import { onUniqueViolation } from '../../core/db/unique-violation';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ParamError,
  UnauthenticatedError,
  ValidationError,
  type DomainError,
} from '../../core/errors/domain-errors';
import { offsetPage } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import {
  beforeNamespacesRemoved,
  createPersonalNamespace,
  deleteNamespace,
  deletePersonalNamespaceOf,
  fullPathTakenByOther,
  groupsWithoutOtherOwner,
  lockGroupsOwnedBy,
  renamePersonalNamespace,
} from '../namespaces';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import { checkColumnLengths } from '../../core/validation/column-length';
import { TOP_LEVEL_RESERVED, checkNameOrPath, isValidNamespacePath } from '../../core/validation/path-rules';
import { newUserDefaults } from '../application-settings';
import { hashPassword } from './password';
import { User } from './user.entity';
import type { UploadedFile } from '../../core/http/uploaded-file';
import { avatarProblems, saveAvatar } from '../avatars';
import { patchEntity, type PatchMapping } from '../../core/patch/patch-entity';
import { UserAttributesInput, type CreateUserInput, type UpdateUserInput, type UsersArgs } from './user.inputs';
import { customAttributeFilter } from '../custom-attributes';
import { checkIdentity, removeIdentity, saveIdentity } from './identity.service';
import { longerThan, shorterThan } from '../../core/validation/char-length';
import { projectsInNamespacesEvents, userSshKeyEvents } from '../../core/events/system-event-catalogue';
import { userEvent } from './user.events';

const EMAIL = /^[^@\s]+@[^@\s]+$/;
/** POST /users: GitLab 10.3's `at_least_one_of :password, :reset_password`, declared at `password`. */
export const PASSWORD_OR_RESET: ParamRule = { atLeastOneOf: ['password', 'reset_password'], at: 'password' };
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const passwordAllowed = (p: string) => !shorterThan(p, PASSWORD_MIN) && !longerThan(p, PASSWORD_MAX);
/**
 * Input fields stored differently from how they are written (the rest is copied by patchEntity). A
 * password outside 8..128 is not hashed (hashing a megabyte with scrypt is expensive): `validate` refuses it
 * before anything is stored.
 */
const STORED: PatchMapping<UserAttributesInput> = {
  password: (p) => (passwordAllowed(p) ? { passwordDigest: hashPassword(p) } : {}),
  provider: 'skip',
  externUid: 'skip',
  avatar: 'skip',
};

async function get(ctx: RequestCtx, id: number): Promise<User> {
  const user = await ctx.em.findOne(User, { id });
  if (!user) throw new NotFoundError('User');
  return user;
}

const ACTIVE = `u.state = 'active'`;

async function list(ctx: RequestCtx, args: UsersArgs): Promise<Page<User>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (args.search) {
    // Private e-mails are no search oracle: admins match e-mail substrings, others an exact e-mail only
    // (GitLab's User.search without admin: https://docs.gitlab.com/ee/api/users.html#list-users).
    const term = `%${likeEscape(args.search)}%`;
    const email = policy.isAdmin(ctx.user) ? 'u.email ilike ?' : 'lower(u.email) = lower(?)';
    where.push(`(u.username ilike ? or u.name ilike ? or ${email})`);
    params.push(term, term, policy.isAdmin(ctx.user) ? term : args.search);
  }
  if (args.usernames) {
    if (args.usernames.length > MAX_PER_PAGE) throw new ParamError(`usernames has more than ${MAX_PER_PAGE} values`);
    where.push('lower(u.username) = any(?::text[])');
    params.push(pgArray(args.usernames.map((n) => n.toLowerCase())));
  }
  if (args.username) {
    where.push('lower(u.username) = lower(?)');
    params.push(args.username);
  }
  if (args.active) where.push(ACTIVE);
  if (args.blocked) where.push(`u.state = 'blocked'`);
  if (args.externUid != null && args.provider != null) {
    // GitLab 10.3: `authenticated_as_admin!` when both are given (the route requires both or neither).
    if (!ctx.user) throw new UnauthenticatedError();
    if (!policy.isAdmin(ctx.user)) throw new ForbiddenError();
    where.push('u.id in (select i.user_id from identities i where i.provider = ? and lower(i.extern_uid) = lower(?))');
    params.push(args.provider, args.externUid);
  }
  if (args.external) {
    // GitLab 10.3: `authenticated_as_admin! if params[:external].present?`.
    if (!ctx.user) throw new UnauthenticatedError();
    if (!policy.isAdmin(ctx.user)) throw new ForbiddenError();
    where.push('u.external');
  }
  if (args.createdAfter) {
    where.push('u.created_at >= ?');
    params.push(parseTimestamp('created_after', args.createdAfter));
  }
  if (args.createdBefore) {
    where.push('u.created_at <= ?');
    params.push(parseTimestamp('created_before', args.createdBefore));
  }
  customAttributeFilter(ctx, 'User', 'u.id', args.customAttributes, where, params);
  return offsetPage(
    ctx.em,
    {
      select: 'u.*',
      from: 'users u',
      where,
      params,
      orderBy: 'u.id',
      dir: 'asc',
      id: 'u.id',
      // every filter but `active` may match few users anywhere along the ids (docs/growth.md#far-end-matches)
      selective: where.filter((w) => w !== ACTIVE),
      map: (r) => lightEntity(ctx.em, User, r),
    },
    args,
  );
}

function validate(ctx: RequestCtx, user: User, input: UserAttributesInput): void {
  const bag = new FieldErrorBag();
  checkNameOrPath(bag, 'name', user.name);
  if (!EMAIL.test(user.email)) bag.add('email', 'is invalid');
  else if (longerThan(user.email, 255)) bag.add('email', MSG.tooLong);
  checkColumnLengths(bag, ctx.em.getMetadata().get(User.name), user, ['name', 'email', 'username']);
  checkNameOrPath(bag, 'username', user.username, [isValidNamespacePath, MSG.namespacePath], TOP_LEVEL_RESERVED);
  // Devise's password_length 8..128 (GitLab 10.3): one message, the bound that is crossed.
  if (input.password != null && shorterThan(input.password, PASSWORD_MIN))
    bag.add('password', `is too short (minimum is ${PASSWORD_MIN} characters)`);
  else if (input.password != null && longerThan(input.password, PASSWORD_MAX))
    bag.add('password', `is too long (maximum is ${PASSWORD_MAX} characters)`);
  if (input.projectsLimit != null && input.projectsLimit < 0)
    bag.add('projects_limit', 'must be greater than or equal to 0');
  for (const problem of input.avatar ? avatarProblems(input.avatar.filename, input.avatar.data) : [])
    bag.add('avatar', problem);
  if (!bag.empty) throw new ValidationError(bag.errors);
}

/**
 * GitLab answers duplicate email/username on the users API with 409 (not 400); another user's
 * secondary address is the model's 400 (10.3's User#unique_email).
 */
async function checkConflicts(em: RequestCtx['em'], user: User): Promise<void> {
  const [row] = await sqlRows<{ email: boolean; username: boolean; secondary: boolean }>(
    em,
    `select exists(select 1 from users where lower(email) = lower(?) and id <> ?) as email,
            ${fullPathTakenByOther()} as username,
            ${secondaryEmailInUseByOther()} as secondary`,
    [user.email, user.id ?? 0, user.username, user.id ?? 0, user.email, user.id ?? 0],
  );
  if (row.email) throw new ConflictError('Email has already been taken');
  if (row.username) throw new ConflictError('Username has already been taken');
  if (row.secondary) throw new ValidationError({ email: [MSG.taken] });
}

/**
 * In the write's transaction, before a user's new primary address is stored: the address's lock, then
 * checkConflicts again (the same answers). The check before the transaction answers the common case
 * early; this one decides a race against a parallel write of the address as a primary or secondary one.
 */
async function claimEmail(em: RequestCtx['em'], user: User): Promise<void> {
  await lockEmailAddress(em, user.email);
  await checkConflicts(em, user);
}

/** A lost race on the unique indexes ends as the same 409 (400 for an identity) as a detected duplicate. */
function conflictFromIndex(e: unknown): DomainError {
  const detail = String((e as { constraint?: string; message?: string }).constraint ?? (e as Error).message);
  if (detail.includes('identities')) return new ValidationError({ identities: ['is invalid'] });
  return new ConflictError(
    detail.includes('email') ? 'Email has already been taken' : 'Username has already been taken',
  );
}

async function create(ctx: RequestCtx, given: CreateUserInput): Promise<User> {
  const missing = (['email', 'name', 'username'] as const).filter((k) => given[k] == null);
  if (missing.length) throw ParamError.missing(...missing);
  // The route's rule, for GraphQL's caller too (REST has answered it with the other parameters' problems).
  const [noPassword] = ruleProblems([PASSWORD_OR_RESET], {
    password: given.password,
    reset_password: given.resetPassword,
  });
  if (noPassword) throw new ParamError(noPassword);
  // reset_password=false without a password passes Grape's at_least_one_of and fails the model, as in GitLab.
  if (given.password == null && given.resetPassword === false)
    throw new ValidationError({ password: ["can't be blank"] });
  // GitLab validates the random password it sets, not one sent beside reset_password.
  const input = given.resetPassword === true ? { ...given, password: undefined } : given;
  const user = new User();
  patchEntity(user, input, UserAttributesInput, STORED);
  // GitLab's force_random_password: reset_password sets a random password (the given one too is replaced).
  if (input.resetPassword === true) user.passwordDigest = hashPassword(randomBytes(24).toString('base64url'));
  const defaults = await newUserDefaults(ctx);
  user.projectsLimit = input.projectsLimit ?? defaults.projectsLimit;
  if (input.external == null && defaults.external) {
    // A user made external by user_default_external gets GitLab's external rights unless sent otherwise.
    user.external = true;
    user.canCreateGroup = input.canCreateGroup ?? false;
    user.projectsLimit = input.projectsLimit ?? 0;
  }
  user.createdAt = user.updatedAt = ctx.clock.now();
  validate(ctx, user, input);
  await checkConflicts(ctx.em, user);
  await checkIdentity(ctx, undefined, input);
  await insertWithNamespace(
    ctx,
    user,
    async (em) => {
      if (input.avatar) await storeAvatar(em, user, input.avatar);
      const identity = await saveIdentity(em, user.id, input, userEntity(user));
      await recordAudit(ctx, em, [{ ...userAudit(user), action: { add: 'user' } }, ...identity]);
      await emitSystemEvents(ctx, em, () => userEvent(em, user.id, 'create'));
    },
    (em) => claimEmail(em, user),
  );
  return user;
}

/** Audit events of a user (GitLab EE's `for_user`): the user is the entity, by username. */
const userEntity = (u: Pick<User, 'id' | 'username'>): Pick<AuditEntry, 'entityType' | 'entityId' | 'entityPath'> => ({
  entityType: 'User',
  entityId: u.id,
  entityPath: u.username,
});
export const userAudit = (u: Pick<User, 'id' | 'username'>): Omit<AuditEntry, 'action'> => ({
  ...userEntity(u),
  targetType: 'User',
  targetId: u.id,
  targetDetails: u.username,
});
/** The attributes whose changes are recorded (the password as filtered). */
const auditedUserFields = (u: User): Record<string, unknown> => ({
  name: u.name,
  username: u.username,
  email: u.email,
  admin: u.admin,
  external: u.external,
  can_create_group: u.canCreateGroup,
  projects_limit: u.projectsLimit,
  password: u.passwordDigest,
});

/** Stores the avatar (checked by validate) in the write's transaction and keeps its file name on the user. */
async function storeAvatar(em: RequestCtx['em'], user: User, file: UploadedFile): Promise<void> {
  user.avatar = await saveAvatar(em, 'user', user.id, file);
  await em.flush();
}

/**
 * Creates the user and its personal namespace (path = username) in one transaction, with `extra` writes
 * (identity, audit) after the inserts and `before` steps ahead of them (claimEmail).
 */
export async function insertWithNamespace(
  ctx: Pick<RequestCtx, 'em' | 'clock'>,
  user: User,
  extra?: (em: RequestCtx['em']) => Promise<void>,
  before?: (em: RequestCtx['em']) => Promise<void>,
): Promise<void> {
  const write = () =>
    ctx.em.transactional(async (em) => {
      if (before) await before(em);
      em.persist(user);
      await em.flush();
      const ns = await createPersonalNamespace(em, user, ctx.clock.now());
      user.namespaceId = ns.id;
      await em.flush();
      if (extra) await extra(em);
    });
  await onUniqueViolation(write, conflictFromIndex);
}

async function update(ctx: RequestCtx, id: number, input: UpdateUserInput): Promise<User> {
  const user = await get(ctx, id);
  const oldUsername = user.username;
  const before = auditedUserFields(user);
  patchEntity(user, input, UserAttributesInput, STORED);
  user.updatedAt = ctx.clock.now();
  validate(ctx, user, input);
  await checkConflicts(ctx.em, user);
  await checkIdentity(ctx, user.id, input);
  const after = auditedUserFields(user);
  const diff = Object.keys(after).map((k) => ({ name: k, from: before[k], to: after[k], secret: k === 'password' }));
  const emailChanged = String(before.email).toLowerCase() !== user.email.toLowerCase();
  const write = () =>
    ctx.em.transactional(async (em) => {
      if (emailChanged) await claimEmail(em, user);
      if (user.username !== oldUsername && user.namespaceId) {
        await renamePersonalNamespace(em, user.namespaceId, user.username);
      }
      if (input.avatar) await storeAvatar(em, user, input.avatar);
      await em.flush();
      const oldEmail = String(before.email);
      if (emailChanged) await primaryEmailChanged(em, user.id, oldEmail, user.email, user.createdAt, ctx.clock.now());
      const identity = await saveIdentity(em, user.id, input, userEntity(user));
      await recordAudit(ctx, em, [...changes(userAudit(user), diff), ...identity]);
      if (user.username !== oldUsername)
        await emitSystemEvents(ctx, em, () => userEvent(em, user.id, 'rename', oldUsername));
    });
  await onUniqueViolation(write, conflictFromIndex);
  forgetCredentials(ctx.cache, user.id);
  return user;
}

const SOLE_OWNER = 'You must transfer ownership or delete groups before you can remove user';

/**
 * Deletes a user. Groups the user solely owns (no other unexpired Owner) would be left ownerless: as
 * GitLab's Users::DestroyService, the delete is refused unless `hard_delete` is set, which removes those
 * groups too (https://docs.gitlab.com/ee/api/users.html#user-deletion). The candidate groups are locked
 * first, so a concurrent owner change cannot slip between the check and the delete.
 */
async function remove(ctx: RequestCtx, id: number, hardDelete = false): Promise<boolean> {
  const admin = requireUser(ctx);
  const user = await get(ctx, id);
  if (user.id === admin.id) throw new ForbiddenError('You cannot delete yourself');
  await ctx.em.transactional(async (em) => {
    await claimForDelete(ctx, em, byId('users', user.id, 'User'));
    const owned = await lockGroupsOwnedBy(em, user.id);
    const solo = await groupsWithoutOtherOwner(em, owned, user.id);
    if (solo.length > 0 && !hardDelete) throw new ConflictError(SOLE_OWNER);
    // The namespaces that go locked first (no project created in them from here); their forks leave their sources' forks_count.
    await beforeNamespacesRemoved(em, [...solo, ...(user.namespaceId ? [user.namespaceId] : [])]);
    // GitLab removes the personal projects (project_destroy each), then the user: its SSH keys first (key_destroy each), then user_destroy.
    await emitSystemEvents(ctx, em, async () => [
      ...(user.namespaceId ? await projectsInNamespacesEvents.build(em, [user.namespaceId], 'destroy') : []),
      ...(await userSshKeyEvents.build(em, user, 'destroy')),
      ...(await userEvent(em, user.id, 'destroy')),
    ]);
    for (const id of solo) await deleteNamespace(em, id);
    // The personal namespace (and with it the user's projects) goes with the user (FK cascade).
    await deletePersonalNamespaceOf(em, user.id);
    await em.nativeDelete(User, { id: user.id });
    await recordAudit(ctx, em, [{ ...userAudit(user), action: { remove: 'user' } }]);
  });
  forgetCredentials(ctx.cache, user.id);
  return true;
}

/** GitLab's `find_user`: all digits is an id, anything else a username (404 User Not Found). */
async function findByIdOrUsername(ctx: RequestCtx, ref: string): Promise<User> {
  const byId = /^\d+$/.test(ref);
  if (byId && Number(ref) > 2147483647) throw new NotFoundError('User');
  // By username through the unique lower(username) index.
  const [user] = await sqlEntities(
    ctx.em,
    User,
    `select u.* from users u where ${byId ? 'u.id = ?' : 'lower(u.username) = lower(?)'}`,
    [byId ? Number(ref) : ref],
  );
  if (!user) throw new NotFoundError('User');
  return user;
}

/** The id of the user with this username (case-insensitive), or null. */
async function idByUsername(ctx: RequestCtx, username: string): Promise<number | null> {
  const [row] = await sqlRows<{ id: number }>(ctx.em, 'select id from users where lower(username) = lower(?)', [
    username,
  ]);
  return row ? Number(row.id) : null;
}

/** DELETE /users/:id/identities/:provider (admin). */
async function deleteIdentity(ctx: RequestCtx, id: number, provider: string): Promise<boolean> {
  const user = await get(ctx, id);
  return removeIdentity(ctx, user.id, provider, userEntity(user));
}

export const userService = {
  deleteIdentity,
  get,
  findByIdOrUsername,
  idByUsername,
  list,
  create,
  update,
  remove,
};
