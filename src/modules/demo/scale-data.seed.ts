import type { EntityManager } from '@mikro-orm/postgresql';
import { ProgressBar } from '../../core/db/seed/progress';

const BATCH = 10;

/**
 * Large benchmark data in bulk SQL: per scale unit 100 users, 100 groups (10 top-level, 90 subgroups on
 * two more levels) and 1,000 projects with members, shares and statistics. `--scale 100` gives
 * 10,000 groups and 100,000 projects. Idempotent: rows are keyed by deterministic paths
 * (`scale-<n>`…) and inserted with ON CONFLICT DO NOTHING, so re-runs and larger scales only add.
 */
export async function seedScale(em: EntityManager, scale: number): Promise<void> {
  const conn = em.getConnection();
  const run = (sql: string, params: unknown[] = []) => conn.execute(sql, params, 'run');
  const units = Math.max(0, Math.floor(scale));
  const bar = new ProgressBar('scale data', units);
  bar.update(0);
  for (let from = 1; from <= units; from += BATCH) {
    const to = Math.min(units, from + BATCH - 1);
    await em.transactional(async (tx) => {
      const q = (sql: string, params: unknown[] = []) => tx.getConnection().execute(sql, params, 'run');
      // users + personal namespaces
      await q(
        `insert into users (username, email, name) select 'scale-user-' || i, 'scale-user-' || i || '@example.com', 'Scale User ' || i
               from generate_series(?::int * 100 - 99, ?::int * 100) i on conflict do nothing`,
        [from, to],
      );
      await q(`insert into namespaces (name, path, full_path, full_name, kind, owner_id)
               select u.username, u.username, u.username, u.username, 'user', u.id from users u
                where u.username like 'scale-user-%' and u.namespace_id is null on conflict do nothing`);
      await q(
        `update users u set namespace_id = n.id from namespaces n where n.owner_id = u.id and n.kind = 'user' and u.namespace_id is null`,
      );
      // level 1: 10 top-level groups per unit, visibility cycling private/internal/public
      await q(
        `insert into namespaces (name, path, full_path, full_name, kind, visibility_level, description)
               select 'Scale ' || i, 'scale-' || i, 'scale-' || i, 'Scale ' || i, 'group', (i % 3) * 10, 'benchmark group ' || i
                 from generate_series(?::int * 10 - 9, ?::int * 10) i on conflict do nothing`,
        [from, to],
      );
      await q(`update namespaces set traversal_ids = array[id] where traversal_ids = '{}' and parent_id is null`);
      // level 2: 3 children each; level 3: 2 children under each level-2 group (10 + 30 + 60 = 100 per unit)
      for (const [parentLike, children, prefix] of [
        [`scale-%`, 3, 'team'],
        [`scale-%/team-%`, 2, 'squad'],
      ] as const) {
        await q(
          `insert into namespaces (name, path, full_path, full_name, kind, parent_id, visibility_level)
                 select initcap(?) || ' ' || j, ? || '-' || j, p.full_path || '/' || ? || '-' || j, p.full_name || ' / ' || initcap(?) || ' ' || j,
                        'group', p.id, least(p.visibility_level, ((p.id + j) % 3) * 10)
                   from namespaces p cross join generate_series(1, ?) j
                  where p.kind = 'group' and p.full_path like ? and p.full_path not like ? and p.traversal_ids <> '{}'
                    and p.id not in (select parent_id from namespaces where parent_id is not null)
                 on conflict do nothing`,
          [prefix, prefix, prefix, prefix, children, parentLike, `${parentLike}/%`],
        );
        await q(
          `update namespaces c set traversal_ids = p.traversal_ids || c.id from namespaces p where c.parent_id = p.id and c.traversal_ids = '{}' and p.traversal_ids <> '{}'`,
        );
      }
      // 10 projects per group, some archived, with storage statistics
      await q(`insert into projects (name, path, namespace_id, visibility_level, archived, description, tag_list,
                 storage_size, repository_size, lfs_objects_size, job_artifacts_size, created_at, updated_at, last_activity_at)
               select 'Project ' || k, 'project-' || k, g.id, least(g.visibility_level, (k % 3) * 10), k = 10, 'benchmark project',
                      array['scale'], (g.id * k) % 100000 * 3, (g.id * k) % 100000, (g.id * k) % 100000, (g.id * k) % 100000,
                      now() - (k || ' days')::interval, now(), now()
                 from namespaces g cross join generate_series(1, 10) k
                where g.kind = 'group' and g.full_path like 'scale-%' and not exists (select 1 from projects x where x.namespace_id = g.id)
               on conflict do nothing`);
      // members: an owner per top-level group, developers and guests further down
      await q(
        `insert into group_members (group_id, user_id, access_level)
               select g.id, u.id, case when g.parent_id is null then 50 when g.id % 2 = 0 then 30 else 10 end
                 from namespaces g join users u on u.username = 'scale-user-' || (1 + g.id % (? * 100))
                where g.kind = 'group' and g.full_path like 'scale-%' on conflict do nothing`,
        [to],
      );
      // shares: every 7th project shared with another group
      await q(`insert into project_group_links (project_id, group_id, group_access)
               select p.id, g.id, 30 from projects p join namespaces g on g.id = (select min(id) from namespaces where kind = 'group' and id > p.namespace_id + 5)
                where p.id % 7 = 0 and p.description = 'benchmark project' on conflict do nothing`);
    });
    bar.update(to);
  }
  await run('analyze');
}
