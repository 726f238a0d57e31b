import type { TestApp } from './test-app';

/**
 * Bulk rows straight into the tables with generate_series (for lists above GitLab's 10,000-row
 * count limit), as `npm run seed -- --scale` does: projects `bulk-<from>` … `bulk-<to>` in one
 * namespace, ids in that order, each created one second before the previous one.
 */
export async function addBulkProjects(
  t: TestApp,
  namespaceId: number,
  from: number,
  to: number,
  visibility: 'private' | 'internal' | 'public',
): Promise<void> {
  const level = { private: 0, internal: 10, public: 20 }[visibility];
  await t.orm.em.getConnection().execute(
    `insert into projects (name, path, namespace_id, visibility_level, created_at, updated_at, last_activity_at)
     select 'Bulk ' || i, 'bulk-' || i, ?, ?, ts, ts, ts
       from generate_series(?::int, ?::int) i, lateral (select timestamptz '2020-01-01' - i * interval '1 second' as ts) x
      order by i`,
    [namespaceId, level, from, to],
  );
}

/** The target of a Link header's rel (path and query, for supertest), or undefined. */
export function linkOf(link: string | undefined, rel: string): string | undefined {
  const m = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(link ?? '');
  return m ? new URL(m[1]).pathname + new URL(m[1]).search : undefined;
}

/** Subgroups `<parent path>/sub-<from>` … `sub-<to>` of one group, public, with traversal_ids as the service sets them. */
export async function addBulkSubgroups(
  t: TestApp,
  parent: { id: number; fullPath: string; name: string },
  from: number,
  to: number,
): Promise<void> {
  const conn = t.orm.em.getConnection();
  await conn.execute(
    `insert into namespaces (name, path, full_path, full_name, kind, parent_id, visibility_level)
     select 'Sub ' || i, 'sub-' || i, ? || '/sub-' || i, ? || ' / Sub ' || i, 'group', ?, 20
       from generate_series(?::int, ?::int) i order by i`,
    [parent.fullPath, parent.name, parent.id, from, to],
  );
  await conn.execute(
    `update namespaces c set traversal_ids = p.traversal_ids || c.id from namespaces p where c.parent_id = p.id and p.id = ? and c.traversal_ids = '{}'`,
    [parent.id],
  );
}
