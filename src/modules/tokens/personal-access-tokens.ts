import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { forgetCredentials } from '../../core/auth/credential-cache';
import { likeEscape, sqlRows } from '../../core/db/sql';
import { recordAudit } from '../../core/events/audit';
import { NotFoundError, ParamError, UnauthenticatedError } from '../../core/errors/domain-errors';
import { parseTimestamp } from '../../core/params/timestamp-param';
import { assertOptionalDate } from '../../core/params/coerce';
import { offsetPage } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { policy } from '../access';
import { userService, type User } from '../users';
import { PersonalAccessToken } from './personal-access-token.entity';
import { activeTokenSql } from './token-active';
import { TokenState, type CreatePersonalAccessTokenInput, type PersonalAccessTokensArgs } from './token.inputs';
import { issueToken, tokenAudit, type TokenView } from './token.service';

/**
 * Later GitLab's personal access tokens API (docs/rest.md#personal-access-tokens): administrators see
 * and revoke every token, other users their own personal (not impersonation) tokens; a token the caller
 * may not manage is `404 Not found`, as a missing one (GitLab answers 400 to a revoke of another user's token).
 */
const today = (ctx: RequestCtx) => ctx.clock.now().toISOString().slice(0, 10);
const DAY_MS = 86_400_000;
/** GitLab's RotateService: a rotated token without `expires_at` lives one week. */
const ROTATED_LIFETIME_DAYS = 7;

async function list(ctx: RequestCtx, args: PersonalAccessTokensArgs): Promise<Page<PersonalAccessToken>> {
  const caller = requireUser(ctx);
  const where: string[] = [];
  const params: unknown[] = [];
  if (policy.isAdmin(caller)) {
    if (args.userId != null) {
      await userService.get(ctx, args.userId).catch((e: unknown) => {
        throw e instanceof NotFoundError ? NotFoundError.bare() : e;
      });
      where.push('t.user_id = ?');
      params.push(args.userId);
    }
  } else {
    // GitLab's restrict_non_admins!: another user's tokens are 401, not an empty list.
    if (args.userId != null && args.userId !== caller.id) throw new UnauthenticatedError();
    where.push('t.user_id = ?', 'not t.impersonation');
    params.push(caller.id);
  }
  if (args.state === TokenState.ACTIVE || args.state === TokenState.INACTIVE) {
    where.push(args.state === TokenState.ACTIVE ? activeTokenSql('t') : `not ${activeTokenSql('t')}`);
    params.push(today(ctx));
  }
  if (args.revoked != null) where.push(args.revoked ? 't.revoked' : 'not t.revoked');
  if (args.search) {
    where.push('t.name ilike ?');
    params.push(`%${likeEscape(args.search)}%`);
  }
  const times: [string | undefined, string, string, string][] = [
    [args.createdBefore, 'created_before', 't.created_at', '<'],
    [args.createdAfter, 'created_after', 't.created_at', '>'],
    [args.lastUsedBefore, 'last_used_before', 't.last_used_at', '<'],
    [args.lastUsedAfter, 'last_used_after', 't.last_used_at', '>'],
  ];
  for (const [raw, name, column, op] of times) {
    if (!raw) continue;
    where.push(`${column} ${op} ?`);
    params.push(parseTimestamp(name, raw));
  }
  const map = (r: Record<string, unknown>) => ctx.em.map(PersonalAccessToken, r as never);
  return offsetPage(
    ctx.em,
    { select: 't.*', from: 'personal_access_tokens t', where, params, orderBy: 't.id', dir: 'asc', id: 't.id', map },
    args,
  );
}

/** The token, when the caller may manage it (administrators: any; users: their own personal tokens). */
async function manageable(ctx: RequestCtx, id: number): Promise<PersonalAccessToken> {
  const caller = requireUser(ctx);
  const token = await ctx.em.findOne(PersonalAccessToken, { id });
  if (!token || (!policy.isAdmin(caller) && (token.userId !== caller.id || token.impersonation)))
    throw new NotFoundError();
  return token;
}

/** The token of this request (`self`). */
async function current(ctx: RequestCtx): Promise<PersonalAccessToken> {
  const id = ctx.credential?.tokenId;
  const token = id === undefined ? null : await ctx.em.findOne(PersonalAccessToken, { id });
  if (!token) throw new NotFoundError();
  return token;
}

async function owner(ctx: RequestCtx, token: PersonalAccessToken): Promise<User> {
  return userService.get(ctx, token.userId);
}

/** Revokes at once (one conditional UPDATE: of concurrent revokes one records the removal); 204 also when it already was. */
async function revoke(ctx: RequestCtx, token: PersonalAccessToken): Promise<boolean> {
  const user = await owner(ctx, token);
  await ctx.em.transactional(async (em) => {
    const revoked = await sqlRows(
      em,
      'update personal_access_tokens set revoked = true, updated_at = ? where id = ? and not revoked returning id',
      [ctx.clock.now(), token.id],
    );
    const kind = token.impersonation ? 'impersonation_token' : 'personal_access_token';
    if (revoked.length > 0) await recordAudit(ctx, em, [{ ...tokenAudit(user, token), action: { remove: kind } }]);
  });
  forgetCredentials(ctx.cache, user.id);
  return true;
}

/** A new token with the old one's name and scopes; the old one is revoked in the same transaction. */
async function rotate(
  ctx: RequestCtx,
  token: PersonalAccessToken,
  expiresAt: string | null | undefined,
): Promise<TokenView> {
  assertOptionalDate('expires_at', expiresAt);
  const expiry =
    expiresAt ?? new Date(ctx.clock.now().getTime() + ROTATED_LIFETIME_DAYS * DAY_MS).toISOString().slice(0, 10);
  return issueToken(
    ctx,
    await owner(ctx, token),
    { name: token.name, scopes: [...token.scopes], expiresAt: expiry },
    { impersonation: token.impersonation, replaces: token },
  );
}

/** POST /users/:user_id/personal_access_tokens (administrators): a personal token for that user. */
async function createFor(ctx: RequestCtx, userId: number, input: CreatePersonalAccessTokenInput): Promise<TokenView> {
  if (input.scopes == null) throw ParamError.missing('scopes');
  return issueToken(ctx, await userService.get(ctx, userId), input, { impersonation: false });
}

export const personalAccessTokens = {
  list,
  get: manageable,
  current,
  revoke: async (ctx: RequestCtx, id: number) => revoke(ctx, await manageable(ctx, id)),
  revokeCurrent: async (ctx: RequestCtx) => revoke(ctx, await current(ctx)),
  rotate: async (ctx: RequestCtx, id: number, expiresAt?: string | null) =>
    rotate(ctx, await manageable(ctx, id), expiresAt),
  rotateCurrent: async (ctx: RequestCtx, expiresAt?: string | null) => rotate(ctx, await current(ctx), expiresAt),
  createFor,
};
