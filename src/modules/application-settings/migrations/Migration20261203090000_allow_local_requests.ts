import { Migration } from '@mikro-orm/migrations';

/** allow_local_requests_from_system_hooks (later GitLab; docs/rest.md#system-hooks): off by default. */
export class Migration20261203090000AllowLocalRequests extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table application_settings add column allow_local_requests_from_system_hooks boolean not null default false;',
    );
  }
}
