import { Migration } from '@mikro-orm/migrations';

/**
 * The credential cache reads the unique-IPs limit with each credential (docs/security.md#credential-cache): an
 * insert, delete or truncate of application_settings changes it as an update does, so every kind of
 * write now forgets every credential (`auth`; `cache_notify`, core migration 20261209090000) instead of
 * updates only (Migration20261208090000_auth_cache_notify).
 */
export class Migration20261209090100AuthCacheSettingsEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop trigger if exists application_settings_auth_cache on application_settings;');
    this
      .addSql(`create trigger application_settings_auth_cache after insert or update or delete or truncate on application_settings
      for each statement execute function cache_notify('auth');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists application_settings_auth_cache on application_settings;');
    this.addSql(`create trigger application_settings_auth_cache after update on application_settings
      for each statement execute function auth_cache_notify_all();`);
  }
}
