import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { lightEntity, likeEscape, sqlRows } from '../../core/db/sql';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { ConflictError, ForbiddenError, NotFoundError, ParamError, ValidationError } from '../../core/errors/domain-errors';
import { offsetPage } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { Namespace } from '../namespaces/namespace.entity';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import { checkColumnLengths } from '../../core/validation/column-length';
import { TOP_LEVEL_RESERVED, checkNameOrPath, isValidNamespacePath } from '../../core/validation/path-rules';
import { newUserDefaults } from '../application-settings';
import { hashPassword } from './password';
import { policy } from '../access/policy';
import { AccessLevel } from '../access/access-level';
import { activeMembership } from '../access/visibility-sql';
import { User } from './user.entity';
import { patchEntity, type PatchMapping } from '../../core/patch/patch-entity';
import { UserAttributesInput, type CreateUserInput, type UpdateUserInput, type UsersArgs } from './user.inputs';

const EMAIL = /^[^@\s]+@[^@\s]+$/;
/** Input fields stored differently from how they are written (the rest is copied by patchEntity). */
const STORED: PatchMapping<UserAttributesInput> = { password: (p) => ({ passwordDigest: hashPassword(p) }) };

async function get(ctx: RequestCtx, id: number): Promise<User> {
  const user = await ctx.em.findOne(User, { id });
  if (!user) throw new NotFoundError('User');
  return user;
}

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
  if (args.username) {
    where.push('lower(u.username) = lower(?)');
    params.push(args.username);
  }
  if (args.active) where.push(`u.state = 'active'`);
  if (args.blocked) where.push(`u.state = 'blocked'`);
  return offsetPage(ctx.em, { select: 'u.*', from: 'users u', where, params, orderBy: 'u.id', dir: 'asc', id: 'u.id', map: (r) => lightEntity(ctx.em, User, r) }, args);
}

function validate(ctx: RequestCtx, user: User, input: UserAttributesInput): void {
  const bag = new FieldErrorBag();
  checkNameOrPath(bag, 'name', user.name);
  if (!EMAIL.test(user.email)) bag.add('email', 'is invalid');
  else if (user.email.length > 255) bag.add('email', MSG.tooLong);
  checkColumnLengths(bag, ctx.em.getMetadata().get(User.name), user, ['name', 'email', 'username']);
  checkNameOrPath(bag, 'username', user.username, [isValidNamespacePath, MSG.namespacePath], TOP_LEVEL_RESERVED);
  if (input.password != null && input.password.length < 8) bag.add('password', 'is too short (minimum is 8 characters)');
  if (input.projectsLimit != null && input.projectsLimit < 0) bag.add('projects_limit', 'must be greater than or equal to 0');
  if (!bag.empty) throw new ValidationError(bag.errors);
}

/** GitLab answers duplicate email/username on the users API with 409 (not 400). */
async function checkConflicts(ctx: RequestCtx, user: User): Promise<void> {
  const [row] = await sqlRows<{ email: boolean; username: boolean }>(
    ctx.em,
    `select exists(select 1 from users where lower(email) = lower(?) and id <> ?) as email,
            exists(select 1 from namespaces where lower(full_path) = lower(?) and (owner_id is null or owner_id <> ?)) as username`,
    [user.email, user.id ?? 0, user.username, user.id ?? 0],
  );
  if (row.email) throw new ConflictError('Email has already been taken');
  if (row.username) throw new ConflictError('Username has already been taken');
}

/** A lost race on the unique indexes ends as the same 409 as a detected duplicate. */
function conflictFromIndex(e: unknown): ConflictError {
  const detail = String((e as { constraint?: string; message?: string }).constraint ?? (e as Error).message);
  return new ConflictError(detail.includes('email') ? 'Email has already been taken' : 'Username has already been taken');
}

async function create(ctx: RequestCtx, input: CreateUserInput): Promise<User> {
  const missing = (['email', 'password', 'name', 'username'] as const).filter((k) => input[k] == null);
  if (missing.length) throw ParamError.missing(...missing);
  const user = new User();
  patchEntity(user, input, UserAttributesInput, STORED);
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
  await checkConflicts(ctx, user);
  await insertWithNamespace(ctx, user);
  return user;
}

/** Creates the user and its personal namespace (path = username) in one transaction. */
export async function insertWithNamespace(ctx: Pick<RequestCtx, 'em' | 'clock'>, user: User): Promise<void> {
  const write = () => ctx.em.transactional(async (em) => {
    em.persist(user);
    await em.flush();
    const ns = Object.assign(new Namespace(), {
      name: user.username, path: user.username, fullPath: user.username, fullName: user.username, kind: 'user' as const, ownerId: user.id,
      createdAt: ctx.clock.now(), updatedAt: ctx.clock.now(),
    });
    em.persist(ns);
    await em.flush();
    ns.traversalIds = [ns.id];
    user.namespaceId = ns.id;
    await em.flush();
  });
  await onUniqueViolation(write, conflictFromIndex);
}

async function update(ctx: RequestCtx, id: number, input: UpdateUserInput): Promise<User> {
  const user = await get(ctx, id);
  const oldUsername = user.username;
  patchEntity(user, input, UserAttributesInput, STORED);
  user.updatedAt = ctx.clock.now();
  validate(ctx, user, input);
  await checkConflicts(ctx, user);
  const write = () => ctx.em.transactional(async (em) => {
    if (user.username !== oldUsername && user.namespaceId) {
      await em.nativeUpdate(Namespace, { id: user.namespaceId }, { name: user.username, path: user.username, fullPath: user.username, fullName: user.username });
    }
    await em.flush();
  });
  await onUniqueViolation(write, conflictFromIndex);
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
    const owned = await sqlRows<{ id: number }>(
      em,
      `select n.id from namespaces n join group_members gm on gm.group_id = n.id
        where gm.user_id = ? and gm.access_level = ${AccessLevel.OWNER} order by n.id for update of n`,
      [user.id],
    );
    const solo = await sqlRows<{ id: number }>(
      em,
      `select n.id from namespaces n where n.id = any(?::int[]) and not exists (select 1 from group_members o
         where o.group_id = n.id and o.user_id <> ? and o.access_level = ${AccessLevel.OWNER} and ${activeMembership('o')})`,
      [`{${owned.map((r) => Number(r.id)).join(',')}}`, user.id],
    );
    if (solo.length > 0 && !hardDelete) throw new ConflictError(SOLE_OWNER);
    for (const g of solo) await em.nativeDelete(Namespace, { id: g.id });
    // The personal namespace (and with it the user's projects) goes with the user (FK cascade).
    await em.nativeDelete(Namespace, { ownerId: user.id });
    await em.nativeDelete(User, { id: user.id });
  });
  return true;
}

export const userService = { get, list, create, update, remove };
