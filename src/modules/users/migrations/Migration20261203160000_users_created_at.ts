import { Migration } from '@mikro-orm/migrations';

/** GET /users `created_after` / `created_before` (GitLab 10.3): a range on created_at, served by this index. */
export class Migration20261203160000UsersCreatedAt extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index if not exists users_created_at_id on users (created_at, id);');
  }
}
