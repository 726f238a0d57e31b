import { Migration } from '@mikro-orm/migrations';

/**
 * A project's CI/CD settings (GitLab's `project_ci_cd_settings`; `Project.ciCdSettings`,
 * `projectCiCdSettingsUpdate`): `group_runners_enabled`, which GitLab added after 10.3 (10.3's projects
 * have no such column) with default true. A project without a row has the defaults. Expand only: a new
 * table the previous release ignores; a project's removal takes its row.
 */
export class Migration20261215120100ProjectCiCdSettings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table if not exists project_ci_cd_settings (
        project_id integer primary key references projects (id) on delete cascade,
        group_runners_enabled boolean not null default true
      );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists project_ci_cd_settings;');
  }
}
