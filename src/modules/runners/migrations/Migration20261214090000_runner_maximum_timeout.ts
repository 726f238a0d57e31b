import { Migration } from '@mikro-orm/migrations';

/**
 * A runner's maximum job timeout (GitLab's `ci_runners.maximum_timeout`, seconds; `CiRunner.maximumTimeout`).
 * Expand only: a nullable column without a default, which the previous release ignores.
 */
export class Migration20261214090000RunnerMaximumTimeout extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table ci_runners add column if not exists maximum_timeout integer;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table ci_runners drop column if exists maximum_timeout;`);
  }
}
