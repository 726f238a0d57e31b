import { Migration } from '@mikro-orm/migrations';

/**
 * Every instance caches the rate-limit settings (throttles.ts); any write to application_settings, from
 * anywhere, forgets them everywhere at commit (`cache_notify`, core migration 20261209090000).
 */
export class Migration20261209090100ThrottlesCacheNotify extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`create trigger application_settings_throttles_cache after insert or update or delete or truncate on application_settings
      for each statement execute function cache_notify('application_settings:throttles');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists application_settings_throttles_cache on application_settings;');
  }
}
