import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox, SecretSlot } from '../../core/crypto/secret-box';
import { SETTINGS, STORED_SETTINGS, type SettingDef } from './application-settings.catalogue';

/**
 * The credentials of the settings row, sealed at rest like runner tokens: the catalogue's
 * `secret` settings in `<name>_sealed`, and the runner registration token. Each is sealed for its
 * column of row 1 (secret-box.ts, slots). Administrators still read them in clear, as GitLab shows them.
 */
export const SECRET_SETTINGS: readonly SettingDef[] = STORED_SETTINGS.filter((s) => s.secret);

export const sealedColumn = (s: SettingDef) => `${s.name}_sealed`;

/**
 * The switches that need `s` (`requires` it when on: captcha_enabled for captcha_private_key), each
 * turned off when its value is reset after a lost key (docs/operations.md#keys): on without its
 * credential, the settings row would fail its own validation.
 */
export const switchesNeeding = (s: SettingDef): Record<string, boolean> =>
  Object.fromEntries(
    SETTINGS.filter((b) => b.kind === 'boolean' && b.requires?.includes(s.name)).map((b) => [b.name, false]),
  );

const slot = (column: string): SecretSlot => ({ table: 'application_settings', column, row: 1 });
export const settingSlot = (s: SettingDef): SecretSlot => slot(sealedColumn(s));
export const REGISTRATION_TOKEN_SLOT = slot('runners_registration_token_sealed');

type Run = (em: EntityManager, sql: string, params: unknown[]) => Promise<unknown>;

/** What a raw row still holds from before sealing: clear credentials, an unbound (v1) registration token. */
export function hasLeftovers(raw: Record<string, unknown>, secrets: SecretBox): boolean {
  return (
    SECRET_SETTINGS.some((s) => raw[s.name] !== null && raw[s.name] !== undefined) ||
    !secrets.isBound(String(raw.runners_registration_token_sealed))
  );
}

/**
 * Seals what the row still holds in clear (rows from before the sealed columns; SQL migrations have
 * no key) and re-seals a v1 registration token for its slot. Idempotent and safe when several
 * instances do it at once: each UPDATE applies only while the column still holds the value read, so
 * a concurrent settings write or another instance's sealing wins and this one changes nothing.
 * `updated_at` is kept: the settings do not change.
 */
export async function sealLeftovers(
  em: EntityManager,
  run: Run,
  raw: Record<string, unknown>,
  secrets: SecretBox,
): Promise<void> {
  for (const s of SECRET_SETTINGS) {
    const clear = raw[s.name];
    if (clear === null || clear === undefined) continue;
    await run(
      em,
      `update application_settings set "${sealedColumn(s)}" = ?, "${s.name}" = null where id = 1 and "${s.name}" = ?`,
      [secrets.seal(String(clear), settingSlot(s)), clear],
    );
  }
  const token = String(raw.runners_registration_token_sealed);
  // A token that does not open (another key) stays as it is; openOrNull has logged it.
  const plain = secrets.isBound(token) ? null : secrets.openOrNull(token, REGISTRATION_TOKEN_SLOT);
  if (plain !== null) {
    await run(
      em,
      'update application_settings set runners_registration_token_sealed = ? where id = 1 and runners_registration_token_sealed = ?',
      [secrets.seal(plain, REGISTRATION_TOKEN_SLOT), token],
    );
  }
}
