import { Migration } from '@mikro-orm/migrations';

/**
 * Every instance caches whether any group has an avatar (group-avatars-exist.ts: group lists leave the
 * avatar probe out while none has one). A statement that adds, changes or removes a group's avatar,
 * from anywhere (this release, the previous one running beside it, an SQL console), sends that key on
 * the shared cache's channel at commit (as `cache_notify`, core migration 20261209090000, does for whole
 * tables). Users' and projects' avatars, and statements that touch no row, send nothing: the statements'
 * transition tables tell. A TRUNCATE sends nothing either: it can only remove avatars, and an instance
 * that still believes some exist only probes for nothing. Expand-only (docs/operations.md#upgrades-and-rollbacks).
 */
export class Migration20261231090000GroupAvatarsCacheNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function avatars_group_cache_notify() returns trigger language plpgsql as $$
      declare touched boolean := false;
      begin
        -- Each transition table exists only for the events that have it (no new_rows on DELETE).
        if tg_op <> 'DELETE' then
          touched := exists (select 1 from new_rows where group_id is not null);
        end if;
        if not touched and tg_op <> 'INSERT' then
          touched := exists (select 1 from old_rows where group_id is not null);
        end if;
        if touched then
          perform pg_notify('app_cache_invalidate', 'avatars:group-exist');
        end if;
        return null;
      end $$;`);
    this.addSql(`create trigger avatars_group_insert_notify after insert on avatars referencing new table as new_rows
      for each statement execute function avatars_group_cache_notify();`);
    this.addSql(`create trigger avatars_group_update_notify after update on avatars
      referencing old table as old_rows new table as new_rows
      for each statement execute function avatars_group_cache_notify();`);
    this.addSql(`create trigger avatars_group_delete_notify after delete on avatars referencing old table as old_rows
      for each statement execute function avatars_group_cache_notify();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists avatars_group_insert_notify on avatars;');
    this.addSql('drop trigger if exists avatars_group_update_notify on avatars;');
    this.addSql('drop trigger if exists avatars_group_delete_notify on avatars;');
    this.addSql('drop function if exists avatars_group_cache_notify();');
  }
}
