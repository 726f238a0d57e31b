import { Migration } from '@mikro-orm/migrations';

/**
 * Project lists at two million rows (docs/growth.md). `search` matches name, path and
 * description (GitLab's `Project.search`), and an OR is served by an index only when every branch has
 * one: the description gets its trigram index like name and path (initial migration), so a selective
 * term is a BitmapOr of three GIN scans instead of a scan of the table. The anonymous list (public
 * projects by created_at, the default order) gets a partial index, so its first page and its bounded
 * count read public rows only however rare they are. Skipped like the other trigram indexes when
 * pg_trgm is unavailable.
 */
export class Migration20261203140000ProjectsGrowthIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      do $$ begin
        if exists (select 1 from pg_extension where extname = 'pg_trgm') then
          execute 'create index if not exists projects_description_trgm on projects using gin (description gin_trgm_ops)';
        end if;
      end $$;`);
    this.addSql(`create index projects_public_created_idx on projects (created_at, id) where visibility_level = 20;`);
  }
}
