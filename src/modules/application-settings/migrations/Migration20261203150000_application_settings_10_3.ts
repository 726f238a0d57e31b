import { Migration } from '@mikro-orm/migrations';

/** GitLab 10.3 settings the spec's table does not list (catalogue: after the throttles), with 10.3's defaults. */
export class Migration20261203150000ApplicationSettings103 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table application_settings
      add column auto_devops_enabled boolean not null default false,
      add column gitaly_timeout_default integer not null default 55,
      add column gitaly_timeout_medium integer not null default 30,
      add column gitaly_timeout_fast integer not null default 10,
      add column hashed_storage_enabled boolean not null default false,
      add column help_page_text text;`);
  }
}
