import { bool, computed, int, lowerEnum, num, shape, str, strList, time, type WireField } from '../../core/wire/wire';
import { VISIBILITY_REST_VALUES } from '../access';
import { SETTINGS, WEB_PASSWORD_ALIASES, type SettingDef } from './application-settings.catalogue';

/** The wire field of one setting; the key is the setting's name, its GraphQL source the camelCase. */
function wireField(s: SettingDef): WireField {
  const o = { nullable: s.nullable === true, description: s.description };
  switch (s.kind) {
    case 'string':
      return str(o);
    case 'boolean':
    case 'derived':
      return bool({ description: s.description });
    case 'integer':
    case 'groupPath':
      return int(o);
    case 'decimal':
      return num(o);
    case 'strings':
      return strList(o);
    case 'visibility':
      return lowerEnum(VISIBILITY_REST_VALUES, { description: s.description });
    case 'visibilities':
      return { ...lowerEnum(VISIBILITY_REST_VALUES, o), array: true };
  }
}

/**
 * GET/PUT /application/settings (spec 2.5): id, every setting of the catalogue in the spec table's
 * order, GitLab's legacy aliases of password_authentication_enabled_for_web, the instance runner
 * registration token and the timestamps.
 */
export const ApplicationSettingsWire = shape('ApplicationSettings', {
  id: int(),
  ...Object.fromEntries(SETTINGS.map((s) => [s.name, wireField(s)])),
  ...Object.fromEntries(WEB_PASSWORD_ALIASES.map((a) => [a, bool()])),
  runners_registration_token: str(),
  created_at: time(),
  updated_at: time(),
});

/**
 * Later GitLab's Entities::Ci::ResetTokenResult (POST /runners/reset_registration_token): the new token;
 * a registration token never expires, so `token_expires_at` is null as GitLab answers it.
 */
export const ResetTokenResultWire = shape('ResetTokenResult', {
  token: str('runnersRegistrationToken', { nullable: true }),
  token_expires_at: computed('runnersRegistrationToken', 'timestamp', () => null),
});
