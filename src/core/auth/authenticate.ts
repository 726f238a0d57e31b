import type { EntityManager } from '@mikro-orm/postgresql';
import { PersonalAccessToken } from '../../modules/tokens/personal-access-token.entity';
import { User } from '../../modules/users/user.entity';
import { digestToken } from './token';

export interface AuthResult {
  user: User | null;
  tokenInvalid: boolean;
}

/** Resolves a supplied token to its active user; unknown, revoked, expired or blocked → tokenInvalid. */
export async function authenticateToken(em: EntityManager, token: string | undefined, now: Date): Promise<AuthResult> {
  if (token === undefined) return { user: null, tokenInvalid: false };
  if (token === '' || token.length > 255) return { user: null, tokenInvalid: true };
  const pat = await em.findOne(PersonalAccessToken, { tokenDigest: digestToken(token), revoked: false });
  if (!pat || (pat.expiresAt !== null && pat.expiresAt <= now.toISOString().slice(0, 10))) {
    return { user: null, tokenInvalid: true };
  }
  const user = await em.findOne(User, { id: pat.userId });
  if (!user || user.state !== 'active') return { user: null, tokenInvalid: true };
  return { user, tokenInvalid: false };
}
