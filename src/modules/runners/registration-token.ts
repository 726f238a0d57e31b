import type { RequestCtx } from '../../core/context/request-ctx';
import { matchesRunnersRegistrationToken } from '../application-settings';

/**
 * Is this the instance-wide runner registration token? Application settings own it
 * (`runners_registration_token`, sealed with a digest); a match registers a shared runner.
 */
export function isInstanceRegistrationToken(ctx: RequestCtx, token: string): Promise<boolean> {
  return matchesRunnersRegistrationToken(ctx, token);
}
