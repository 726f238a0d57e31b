import { Migration } from '@mikro-orm/migrations';

/**
 * Every instance caches the feature flags (`features`, feature.service.ts); any write to the table, from
 * anywhere, forgets them everywhere at commit (`cache_notify`, core migration 20261209090000).
 */
export class Migration20261209090100FeaturesCacheNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create trigger features_cache_notify after insert or update or delete or truncate on features
      for each statement execute function cache_notify('features');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists features_cache_notify on features;');
  }
}
