import { Migration } from '@mikro-orm/migrations';

/**
 * Who created a runner (GitLab's `ci_runners.creator_id`; `CiRunner.createdBy`): set by `runnerCreate` and
 * POST /user/runners, null for a runner registered with a registration token. Expand only: a nullable
 * column the previous release ignores; the index serves the foreign key's ON DELETE SET NULL.
 */
export class Migration20261214090100RunnerCreator extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table ci_runners add column if not exists creator_id integer references users (id) on delete set null;`,
    );
    this.addSql(
      `create index if not exists ci_runners_creator_idx on ci_runners (creator_id) where creator_id is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table ci_runners drop column if exists creator_id;`);
  }
}
