import { Migration } from '@mikro-orm/migrations';

/**
 * A job's tags (GitLab's `ci_builds.tag_list`: the tags a runner must carry to take it), as the CI system
 * writes them; `CiJob.tags`. Expand only: a new column with a default, which the previous release ignores.
 */
export class Migration20261213090000CiBuildsTagList extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table ci_builds add column if not exists tag_list text[] not null default '{}';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table ci_builds drop column if exists tag_list;`);
  }
}
