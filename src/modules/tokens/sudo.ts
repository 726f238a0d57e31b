import { hasNulByte } from '../../core/params/coerce';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ForbiddenError,
  InsufficientScopeError,
  NotFoundError,
  UnauthenticatedError,
} from '../../core/errors/domain-errors';
import { policy } from '../access';
import { findUserByIdOrUsername } from '../users';
import type { AuthResult } from './authenticate';

/**
 * GitLab's Sudo (https://docs.gitlab.com/ee/api/rest/#sudo, docs/permissions.md): an administrator
 * whose token has the `sudo` scope acts as another user, named by id or username in the `Sudo` header
 * or the `sudo` parameter. The token's scopes still apply to what the request may do.
 * Errors in GitLab's order: 401 without a user, 403 "Must be admin to use sudo", 403 insufficient_scope
 * (scope sudo), 404 "User with ID or username '<x>' Not Found".
 */
export async function applySudo(em: EntityManager, auth: AuthResult, identifier: string): Promise<AuthResult> {
  if (auth.tokenInvalid || !auth.user || !auth.credential) throw new UnauthenticatedError();
  if (!policy.isAdmin(auth.user)) throw new ForbiddenError('Must be admin to use sudo');
  if (!auth.credential.scopes.includes('sudo')) throw new InsufficientScopeError('sudo');
  // A username is at most 255 characters and text cannot carry NUL: no such user, without asking the database.
  if (identifier.length > 255 || hasNulByte(identifier))
    throw new NotFoundError(`User with ID or username '${identifier.slice(0, 255)}'`);
  const user = await findUserByIdOrUsername(em, identifier);
  if (!user) throw new NotFoundError(`User with ID or username '${identifier}'`);
  return { user, credential: { ...auth.credential, sudoer: auth.user }, tokenInvalid: false, refusal: auth.refusal };
}
