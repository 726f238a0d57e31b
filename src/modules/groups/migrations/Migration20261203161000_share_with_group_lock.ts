import { Migration } from '@mikro-orm/migrations';

/** GitLab 10.3's `share_with_group_lock` of groups: projects of a locked group cannot be shared with other groups. */
export class Migration20261203161000ShareWithGroupLock extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table namespaces add column share_with_group_lock boolean not null default false;');
  }
}
