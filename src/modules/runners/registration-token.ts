import type { RequestCtx } from '../../core/context/request-ctx';

/**
 * Is this the instance-wide runner registration token (application settings,
 * `runners_registration_token`)? Application settings own that token.
 */
export async function isInstanceRegistrationToken(_ctx: RequestCtx, _token: string): Promise<boolean> {
  return false;
}
