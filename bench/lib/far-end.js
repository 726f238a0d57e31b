// The far-end rows of the growth bench (docs/growth.md, "Far-end matches"): 1,000 matches per searchable
// list that all lie at the far end of the list's order, the same on the small and the large side, so a
// list that walks its order index to find them costs the whole index at 2M rows and little at scale 10.
//   groups    a subgroup `zzfar archive` in each of the first 1,000 groups: last by name, highest ids
//   projects  one `zzfar archive` project in each of them, created in 2000: the oldest, last by name
//   users     farend-user-<i> named `zzfar archive`, with their namespaces: highest ids (the term is in
//             their name only, so the group and namespace searches do not also find their namespaces)
//   custom attributes `zzfar = archive` on each of these groups, projects and users
//   big       12,000 projects `zzbig import <i>` in the first far-end group, created in 1990 (the oldest of
//             all): a match set above the bounded count's 10,000 that lies entirely at the far end
// The shared name is the realistic part (a thousand projects imported together): it is one of the
// planner's most common values, so it knows there are about a thousand and, assuming them spread
// along the order, walks the order index: 2,010,007 rows removed by filter before the fix.
const { Client } = require('pg');

const FAR = 1000;
const BIG = 12000;
/** The search terms and custom attribute (key, value) the far-end scenarios ask for. */
const FAR_TERM = 'zzfar';
const BIG_TERM = 'zzbig';
const FAR_ATTRIBUTE = { key: 'zzfar', value: 'archive' };

const STEPS = [
  // subgroups of the first FAR groups by id (the scale seed's, on both sides), with their parent's visibility
  `insert into namespaces (name, path, full_path, full_name, kind, parent_id, visibility_level, description, created_at, updated_at)
   select 'zzfar archive', 'zzfar-archive', p.full_path || '/zzfar-archive', p.full_name || ' / zzfar archive', 'group', p.id,
          p.visibility_level, 'zzfar archive', ts, ts
     from (select n.*, row_number() over (order by n.id) as i from namespaces n where n.kind = 'group' and n.path <> 'zzfar-archive'
            order by n.id limit ${FAR}) p,
          lateral (select timestamptz '2000-01-01' - p.i * interval '1 second' as ts) x
   order by p.i`,
  `update namespaces c set traversal_ids = p.traversal_ids || c.id from namespaces p
    where c.parent_id = p.id and c.path = 'zzfar-archive' and c.traversal_ids = '{}'`,
  `insert into projects (name, path, namespace_id, visibility_level, description, created_at, updated_at, last_activity_at)
   select 'zzfar archive', 'zzfar-archive', n.id, n.visibility_level, 'zzfar archive', n.created_at, n.created_at, n.created_at
     from namespaces n where n.kind = 'group' and n.path = 'zzfar-archive' order by n.id`,
  `with s as (
     select nextval('users_id_seq')::int as uid, nextval('namespaces_id_seq')::int as nid, 'farend-user-' || i as username, ts
       from generate_series(1, ${FAR}) i, lateral (select timestamptz '2000-01-01' - i * interval '1 second' as ts) x order by i),
   u as (
     insert into users (id, username, email, name, namespace_id, created_at, updated_at)
     select uid, username, username || '@example.com', 'zzfar archive', nid, ts, ts from s returning id)
   insert into namespaces (id, name, path, full_path, full_name, kind, owner_id)
   select s.nid, s.username, s.username, s.username, s.username, 'user', s.uid from s join u on u.id = s.uid`,
  `insert into group_custom_attributes (group_id, key, value)
   select id, '${FAR_ATTRIBUTE.key}', '${FAR_ATTRIBUTE.value}' from namespaces where kind = 'group' and path = 'zzfar-archive'`,
  `insert into project_custom_attributes (project_id, key, value)
   select id, '${FAR_ATTRIBUTE.key}', '${FAR_ATTRIBUTE.value}' from projects where path = 'zzfar-archive'`,
  `insert into user_custom_attributes (user_id, key, value)
   select id, '${FAR_ATTRIBUTE.key}', '${FAR_ATTRIBUTE.value}' from users where username like 'farend-user-%'`,
];

/** The big far-end set, in a step of its own: data directories loaded before it existed get it too. */
const BIG_STEP = `insert into projects (name, path, namespace_id, visibility_level, created_at, updated_at, last_activity_at)
  select 'zzbig import ' || i, 'zzbig-import-' || i, n.id, n.visibility_level, ts, ts, ts
    from (select * from namespaces where kind = 'group' and path = 'zzfar-archive' order by id limit 1) n,
         generate_series(1, ${BIG}) i, lateral (select timestamptz '1990-01-01' - i * interval '1 second' as ts) x
   order by i`;

/**
 * Adds the far-end rows to one data set unless they are there (one transaction), then ANALYZE of the
 * tables they went into. Run after the data set's other rows, so the ids are the highest.
 */
async function addFarEnd(dbUrl, log) {
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      `select (select count(*)::int from users where username like 'farend-user-%') as far,
              (select count(*)::int from projects where path like 'zzbig-import-%') as big`,
    );
    if (rows[0].far >= FAR && rows[0].big >= BIG) return;
    const t0 = Date.now();
    await db.query('begin');
    for (const sql of rows[0].far >= FAR ? [] : STEPS) await db.query(sql);
    if (rows[0].big < BIG) await db.query(BIG_STEP);
    await db.query('commit');
    await db.query(
      'analyze namespaces, projects, users, group_custom_attributes, project_custom_attributes, user_custom_attributes',
    );
    log(`  far-end rows: ${FAR} groups, projects and users, ${BIG} big-set projects (${Date.now() - t0} ms)`);
  } catch (e) {
    await db.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    await db.end();
  }
}

module.exports = { addFarEnd, FAR_TERM, BIG_TERM, FAR_ATTRIBUTE };
