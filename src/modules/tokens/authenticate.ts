import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../core/context/request-ctx';
import type { DomainError } from '../../core/errors/domain-errors';
import { UNIQUE_IPS_COLUMNS, UNIQUE_IPS_JOIN, uniqueIpsRefusal, type UniqueIpsLimit } from '../application-settings';
import { lightEntity, sqlRows } from '../../core/db/sql';
import { digestToken } from '../../core/auth/token';
import { User } from '../users/user.entity';
import { noteActivity } from '../users/user-activity';
import { activeTokenSql } from './token-active';

export interface AuthResult {
  user: User | null;
  credential: Credential | null;
  tokenInvalid: boolean;
  /** The request is refused although the token is valid (unique-IPs limit, spec 4.18). */
  refusal?: DomainError | null;
}

/** Resolves a supplied token to its active user and scopes; unknown, revoked, expired or blocked → tokenInvalid. */
export async function authenticateToken(em: EntityManager, token: string | undefined, now: Date, ip?: string): Promise<AuthResult> {
  if (token === undefined) return { user: null, credential: null, tokenInvalid: false };
  if (token === '' || token.length > 255) return { user: null, credential: null, tokenInvalid: true };
  // One indexed lookup per request: the token's digest joined to its active user.
  const [row] = await sqlRows<Record<string, unknown> & UniqueIpsLimit & { token_scopes: string[]; token_impersonation: boolean }>(
    em,
    `select u.*, t.scopes as token_scopes, t.impersonation as token_impersonation, ${UNIQUE_IPS_COLUMNS}
       from personal_access_tokens t join users u on u.id = t.user_id ${UNIQUE_IPS_JOIN}
      where t.token_digest = ? and ${activeTokenSql('t')} and u.state = 'active'`,
    [digestToken(token), now.toISOString().slice(0, 10)],
  );
  if (!row) return { user: null, credential: null, tokenInvalid: true };
  const { token_scopes: scopes, token_impersonation: impersonation, ips_limit, ips_window } = row;
  const refusal = await uniqueIpsRefusal(em, { ips_limit, ips_window }, Number(row.id), ip, now);
  // A read-only record of the caller (not in the identity map): services that change a user load it
  // through the EntityManager (issue 8: mapping a managed entity was most of MikroORM's per-request cost).
  // The row mapper reads the users columns only, so the token columns need no copy of the row without them.
  const user = lightEntity(em, User, row);
  if (!refusal) noteActivity(em, user, now);
  return { user, credential: { scopes, impersonation }, tokenInvalid: false, refusal };
}
