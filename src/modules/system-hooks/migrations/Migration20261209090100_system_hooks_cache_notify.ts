import { Migration } from '@mikro-orm/migrations';

/**
 * Every instance caches whether any system hook exists (core/events/system-events.ts: without one, no
 * event is written); a hook added or removed from anywhere changes that everywhere at commit
 * (`cache_notify`, core migration 20261209090000).
 */
export class Migration20261209090100SystemHooksCacheNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create trigger system_hooks_cache_notify after insert or delete or truncate on system_hooks
      for each statement execute function cache_notify('system_hooks:exist');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists system_hooks_cache_notify on system_hooks;');
  }
}
