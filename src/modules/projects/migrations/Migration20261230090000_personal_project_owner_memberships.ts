import { Migration } from '@mikro-orm/migrations';

/**
 * A personal project's owner is a direct member (Master), as project creation makes them: GitLab's
 * member lists show the owner through that row. Projects transferred into a personal namespace before
 * the transfer added it (project-transfer.ts) lack it; added here once, without system hooks.
 */
export class Migration20261230090000PersonalProjectOwnerMemberships extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      insert into project_members (project_id, user_id, access_level, expires_at, created_at, updated_at)
      select p.id, n.owner_id, 40, null, now(), now()
        from projects p join namespaces n on n.id = p.namespace_id
       where n.kind = 'user' and n.owner_id is not null
         and not exists (select 1 from project_members m where m.project_id = p.id and m.user_id = n.owner_id)
      on conflict (project_id, user_id) do nothing;`);
  }
}
