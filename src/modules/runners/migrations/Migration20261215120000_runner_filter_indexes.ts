import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes of the runner lists' filters. `versionPrefix` (GitLab's filter on its runner managers'
 * version): a runner's manager is the runner once it made contact (runner-manager.ts), so the filter is
 * `contacted_at is not null and version like '<prefix>%'`, a range of this partial pattern index.
 * `search` (GitLab's Ci::Runner.search: a description substring, or the whole token): a BitmapOr of the
 * description's trigram index (skipped when pg_trgm is unavailable) and ci_runners_token_digest_uniq.
 * Expand only: indexes the previous release does not use.
 */
export class Migration20261215120000RunnerFilterIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index if not exists ci_runners_version_prefix_idx on ci_runners (version varchar_pattern_ops) where contacted_at is not null;',
    );
    this.addSql(`
      do $$ begin
        if exists (select 1 from pg_extension where extname = 'pg_trgm') then
          execute 'create index if not exists ci_runners_description_trgm on ci_runners using gin (description gin_trgm_ops)';
        end if;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists ci_runners_version_prefix_idx;');
    this.addSql('drop index if exists ci_runners_description_trgm;');
  }
}
