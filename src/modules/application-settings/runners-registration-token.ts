import type { RequestCtx } from '../../core/context/request-ctx';
import { runnersTokenDigestMatches } from './application-settings.store';

/**
 * Whether `token` is the instance runner registration token (POST /runners, spec 4.18): a keyed
 * digest compared by one primary-key read, so the work does not depend on the token. False before
 * the settings row exists (nobody can know a token that was never generated).
 */
export function matchesRunnersRegistrationToken(ctx: RequestCtx, token: string): Promise<boolean> {
  if (typeof token !== 'string' || token === '' || token.length > 255) return Promise.resolve(false);
  return runnersTokenDigestMatches(ctx.em, ctx.secrets.digests(token));
}
