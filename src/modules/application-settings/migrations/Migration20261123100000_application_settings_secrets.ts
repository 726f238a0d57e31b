import { Migration } from '@mikro-orm/migrations';

/** The setting credentials, sealed: the catalogue's `secret` entries. */
const SECRETS = ['captcha_private_key', 'spamfilter_api_key', 'errortracker_dsn', 'clientside_errortracker_dsn'];

/**
 * A sealed column per credential setting. Sealing needs the secrets key, which SQL does not have, so
 * the clear columns stay for now and hold only leftovers: the settings store seals a non-null clear
 * value into `<name>_sealed` and clears it the first time it reads the row
 * (application-settings.store.ts, `sealLeftovers`); every write goes to the sealed column. A later
 * migration may drop the clear columns once every instance runs this version.
 */
export class Migration20261123100000ApplicationSettingsSecrets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table application_settings ${SECRETS.map((s) => `add column ${s}_sealed text null`).join(', ')};`,
    );
  }
}
