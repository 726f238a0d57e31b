import { Migration } from '@mikro-orm/migrations';

/**
 * Identities: a user's accounts at external authentication providers (GitLab's
 * `identities`, set through `provider` + `extern_uid` on POST/PUT /users). One per provider and user;
 * an external uid belongs to one user per provider, compared case-insensitively as GitLab's
 * Identity validation and `with_extern_uid` do. The unique (provider, lower(extern_uid)) index also
 * serves `GET /users?provider=&extern_uid=`; (user_id, provider) the entity's identities per user.
 */
export class Migration20261203100100Identities extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table identities (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        provider varchar(255) not null,
        extern_uid varchar(255) not null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql('create unique index identities_provider_extern_uid_uniq on identities (provider, lower(extern_uid));');
    this.addSql('create unique index identities_user_provider_uniq on identities (user_id, provider);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table identities;');
  }
}
