import { assertNotPast } from '../../core/validation/future-date';
import { forgetCredentials } from '../../core/auth/credential-cache';
import { assertOptionalDate } from '../../core/params/coerce';
import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { digestToken, generateToken } from '../../core/auth/token';
import { recordAudit, type AuditEntry } from '../../core/events/audit';
import type { User } from '../users';
import { BadRequestError, NotFoundError, ParamError, ValidationError } from '../../core/errors/domain-errors';
import { offsetPage, offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { userService } from '../users';
import { PersonalAccessToken } from './personal-access-token.entity';
import { TOKEN_SCOPES } from '../../core/auth/allow';
import { activeTokenSql, isTokenActive } from './token-active';
import { patchEntity } from '../../core/patch/patch-entity';
import { sqlRows } from '../../core/db/sql';
import {
  CreateImpersonationTokenInput,
  TokenState,
  type ImpersonationTokensArgs,
  type TokenStateArgs,
} from './token.inputs';
import { longerThan } from '../../core/validation/char-length';

export type TokenView = PersonalAccessToken & { token: string | null };

const today = (ctx: RequestCtx) => ctx.clock.now().toISOString().slice(0, 10);

export function isActive(ctx: RequestCtx, t: PersonalAccessToken): boolean {
  return isTokenActive(t, today(ctx));
}

/** Impersonation tokens by id in a state; the caller adds which user(s) by `t.user_id`. */
function impersonationTokenQuery(ctx: RequestCtx, args: TokenStateArgs): ListQuery<PersonalAccessToken> {
  const where = ['t.impersonation'];
  const params: unknown[] = [];
  const active = activeTokenSql('t');
  if (args.state === TokenState.ACTIVE) where.push(active);
  if (args.state === TokenState.INACTIVE) where.push(`not ${active}`);
  if (args.state === TokenState.ACTIVE || args.state === TokenState.INACTIVE) params.push(today(ctx));
  const map = (r: Record<string, unknown>) => ctx.em.map(PersonalAccessToken, r as never);
  return {
    select: 't.*',
    from: 'personal_access_tokens t',
    where,
    params,
    orderBy: 't.id',
    dir: 'asc',
    id: 't.id',
    map,
  };
}

async function list(ctx: RequestCtx, args: ImpersonationTokensArgs): Promise<Page<PersonalAccessToken>> {
  const user = await userService.get(ctx, args.userId);
  const q = impersonationTokenQuery(ctx, args);
  return offsetPage(ctx.em, { ...q, where: ['t.user_id = ?', ...q.where], params: [user.id, ...q.params] }, args);
}

/** `User.impersonationTokens` of many users (administrators: the resolver checked): one round trip. */
function listForUsers(
  ctx: RequestCtx,
  ids: number[],
  args: TokenStateArgs,
): Promise<Map<number, Page<PersonalAccessToken>>> {
  return offsetPagesByKey(ctx.em, impersonationTokenQuery(ctx, args), 't.user_id', ids, args);
}

async function get(ctx: RequestCtx, userId: number, id: number): Promise<PersonalAccessToken> {
  const user = await userService.get(ctx, userId);
  const token = await ctx.em.findOne(PersonalAccessToken, { id, userId: user.id, impersonation: true });
  if (!token) throw new NotFoundError('Impersonation Token');
  return token;
}

/** Creates an impersonation token; the plain value is returned once and only its SHA-256 digest is stored. */
async function create(ctx: RequestCtx, userId: number, input: CreateImpersonationTokenInput): Promise<TokenView> {
  return issueToken(ctx, await userService.get(ctx, userId), input, { impersonation: true });
}

/**
 * Checks and stores a new token of `user` (an impersonation or a personal access token), with its audit
 * event; the plain value is returned once and only its SHA-256 digest is stored. `replaces`: the token a
 * rotation revokes in the same transaction (none when it was revoked meanwhile: the rotation fails).
 */
export async function issueToken(
  ctx: RequestCtx,
  user: User,
  input: CreateImpersonationTokenInput,
  opts: { impersonation: boolean; replaces?: PersonalAccessToken },
): Promise<TokenView> {
  if (!input.scopes || input.scopes.length === 0) throw ParamError.missing('scopes');
  if (input.scopes.some((s) => !(TOKEN_SCOPES as readonly string[]).includes(s))) throw ParamError.notInSet('scopes');
  if (!input.name || longerThan(input.name, 255))
    throw new ValidationError({ name: [input.name ? 'is too long (maximum is 255 characters)' : "can't be blank"] });
  assertOptionalDate('expires_at', input.expiresAt);
  assertNotPast('expires_at', input.expiresAt, ctx.clock.now());
  const plain = generateToken();
  const token = Object.assign(new PersonalAccessToken(), {
    userId: user.id,
    tokenDigest: digestToken(plain),
    impersonation: opts.impersonation,
    createdAt: ctx.clock.now(),
    updatedAt: ctx.clock.now(),
  });
  patchEntity(token, input, CreateImpersonationTokenInput, { scopes: (s) => ({ scopes: [...new Set(s)] }) });
  const kind = opts.impersonation ? 'impersonation_token' : 'personal_access_token';
  const old = opts.replaces;
  await ctx.em.transactional(async (em) => {
    if (old) {
      const revoked = await sqlRows(
        em,
        'update personal_access_tokens set revoked = true, updated_at = ? where id = ? and not revoked returning id',
        [ctx.clock.now(), old.id],
      );
      if (revoked.length === 0) throw new BadRequestError('400 Bad request - token already revoked');
      await recordAudit(ctx, em, [{ ...tokenAudit(user, old), action: { remove: kind } }]);
    }
    em.persist(token);
    await em.flush();
    await recordAudit(ctx, em, [{ ...tokenAudit(user, token), action: { add: kind } }]);
  });
  if (old) forgetCredentials(ctx.cache, user.id);
  return Object.assign(token, { token: plain });
}

/** A token's audit events: on its user (entity User), the token as target by name, never its value. */
export const tokenAudit = (user: User, t: PersonalAccessToken): Omit<AuditEntry, 'action'> => ({
  entityType: 'User',
  entityId: user.id,
  entityPath: user.username,
  targetType: 'PersonalAccessToken',
  targetId: t.id,
  targetDetails: t.name,
});

async function revoke(ctx: RequestCtx, userId: number, id: number): Promise<boolean> {
  const user = await userService.get(ctx, userId);
  const token = await get(ctx, userId, id);
  await ctx.em.transactional(async (em) => {
    await claimForDelete(ctx, em, byId('personal_access_tokens', token.id, 'Impersonation Token'));
    // One conditional UPDATE: of concurrent revokes exactly one records the removal.
    const revoked = await sqlRows(
      em,
      'update personal_access_tokens set revoked = true, updated_at = ? where id = ? and not revoked returning id',
      [ctx.clock.now(), token.id],
    );
    if (revoked.length > 0)
      await recordAudit(ctx, em, [{ ...tokenAudit(user, token), action: { remove: 'impersonation_token' } }]);
  });
  forgetCredentials(ctx.cache, user.id);
  return true;
}

export const tokenService = { list, listForUsers, get, create, revoke };
