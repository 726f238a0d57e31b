import { Migration } from '@mikro-orm/migrations';

/**
 * Environments of a project (spec 2.8). Names and slugs are unique per project (the two unique
 * indexes also answer "taken" races); the list is ordered by id within a project.
 */
export class Migration20261122120100Environments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table environments (
      id serial primary key,
      project_id integer not null references projects (id) on delete cascade,
      name varchar(255) not null,
      slug varchar(24) not null,
      external_url varchar(255) null,
      state varchar(16) not null default 'available' check (state in ('available', 'stopped')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create unique index environments_project_id_name_uniq on environments (project_id, name)');
    this.addSql('create unique index environments_project_id_slug_uniq on environments (project_id, slug)');
    this.addSql('create index environments_project_id_id_idx on environments (project_id, id)');
  }
}
