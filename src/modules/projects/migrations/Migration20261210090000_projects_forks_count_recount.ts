import { Migration } from '@mikro-orm/migrations';

/**
 * forks_count is moved by one with each fork link written from now on (forks-count.ts); before, it
 * was recounted inside each write's transaction, which under parallel forks stored too few, and the
 * cascade of a user's delete left its forks counted. Recounted here once, from the partial index
 * projects_forked_from_idx; only rows whose count is wrong are written.
 */
export class Migration20261210090000ProjectsForksCountRecount extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      update projects s set forks_count = f.n
        from (select forked_from_project_id as id, count(*)::int as n from projects where forked_from_project_id is not null group by 1) f
       where s.id = f.id and s.forks_count <> f.n;`);
    this.addSql(`
      update projects s set forks_count = 0
       where s.forks_count <> 0 and not exists (select 1 from projects f where f.forked_from_project_id = s.id);`);
  }
}
