import { Migration } from '@mikro-orm/migrations';

/**
 * Project search through one trigram index (docs/growth.md "Search"). `search` matches name,
 * path or description; with a GIN index per column, a term whose trigrams are in most rows (every
 * project path holds `project`) built three bitmaps, each intersecting posting lists of two million
 * entries. One index on the three columns joined with spaces answers the same term with one
 * bitmap; the per-column OR is rechecked on its rows
 * (`projectSearch`, project-search.ts, writes exactly this expression). The three per-column indexes
 * go: nothing else reads them, and each project write updates one GIN index instead of three.
 * Skipped like the other trigram indexes when pg_trgm is unavailable (the search then scans).
 */
export class Migration20261207090000ProjectsSearchTrgm extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      do $$ begin
        if exists (select 1 from pg_extension where extname = 'pg_trgm') then
          execute $i$create index if not exists projects_search_trgm on projects using gin ((name || ' ' || path || ' ' || description) gin_trgm_ops)$i$;
          execute 'drop index if exists projects_name_trgm';
          execute 'drop index if exists projects_path_trgm';
          execute 'drop index if exists projects_description_trgm';
        end if;
      end $$;`);
  }
}
