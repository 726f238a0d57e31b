import { addBulkProjects } from '../support/bulk';
import {
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  queryOne,
  type TestUser,
} from '../support/factories';
import { api, ROOT_TOKEN, useTestApp, type TestApp } from '../support/test-app';
import { projectSearch } from '../../src/modules/projects/project-search';

/**
 * The plans that keep project lists flat at two million rows return what they did.
 * A signed-in user's count adds up two disjoint branches (visible by level, else by id), deep offset
 * pages skip on ids first, `search` matches the description too (trigram index), and the indexes exist.
 * Data: 1,100 public, 5 internal, 30 private projects; the user is a member of 10 private and 3 public ones.
 */
const t = useTestApp({ reset: 'once' });
let user: TestUser;
let groupId: number;

async function visibleIds(app: TestApp, where: string): Promise<number[]> {
  const row = await queryOne<{ ids: number[] }>(
    app,
    `select coalesce(array_agg(id order by id), '{}') as ids from projects where ${where}`,
  );
  return (row?.ids ?? []).map(Number);
}

beforeAll(async () => {
  const group = await createGroup(t, { path: 'growth', visibility: 'public' });
  groupId = group.id;
  await addBulkProjects(t, group.id, 1, 1_100, 'public');
  await addBulkProjects(t, group.id, 1_101, 1_105, 'internal');
  await addBulkProjects(t, group.id, 1_106, 1_135, 'private');
  user = await createUser(t);
  for (const path of [
    'bulk-1106',
    'bulk-1110',
    'bulk-1115',
    'bulk-1120',
    'bulk-1121',
    'bulk-1122',
    'bulk-1123',
    'bulk-1124',
    'bulk-1125',
    'bulk-1135',
    'bulk-1',
    'bulk-2',
    'bulk-3',
  ]) {
    const p = await queryOne<{ id: number }>(t, 'select id from projects where path = ?', [path]);
    await addProjectMember(t, p!, user, 30);
  }
}, 60000);

describe('GET /projects as a signed-in user', () => {
  it('counts public, internal and member projects once each (X-Total 1,115)', async () => {
    const res = await api(t, user.token).get('/api/v4/projects?per_page=5').expect(200);
    expect(res.headers['x-total']).toBe('1115');
    expect(res.headers['x-total-pages']).toBe('223');
  });

  it('serves a deep offset page (offset >= 1,000) with the same rows in the same order', async () => {
    const expected = await visibleIds(
      t,
      `visibility_level >= 10 or path in ('bulk-1106','bulk-1110','bulk-1115','bulk-1120','bulk-1121','bulk-1122','bulk-1123','bulk-1124','bulk-1125','bulk-1135')`,
    );
    const res = await api(t, user.token).get('/api/v4/projects?order_by=id&sort=asc&per_page=20&page=55').expect(200);
    expect(res.body.map((p: { id: number }) => p.id)).toEqual(expected.slice(1080, 1100));
    const last = await api(t, user.token).get('/api/v4/projects?order_by=id&sort=asc&per_page=20&page=56').expect(200);
    expect(last.body.map((p: { id: number }) => p.id)).toEqual(expected.slice(1100, 1115));
    expect(last.headers['x-next-page']).toBe('');
  });
});

describe('GET /projects?search= as a signed-in user (a selective list: its matches are sorted, not walked)', () => {
  it('gives the rows and total of the full order, by name and by creation, across pages', async () => {
    const expected = await visibleIds(
      t,
      `path like 'bulk-1%' and (visibility_level >= 10 or path in ('bulk-1106','bulk-1110','bulk-1115','bulk-1120','bulk-1121','bulk-1122','bulk-1123','bulk-1124','bulk-1125','bulk-1135'))`,
    );
    const byName = await queryOne<{ ids: number[] }>(
      t,
      `select array_agg(id order by name, id) as ids from projects where id = any(?::int[])`,
      [`{${expected.join(',')}}`],
    );
    const page = await api(t, user.token)
      .get('/api/v4/projects?search=bulk-1&order_by=name&sort=asc&per_page=20&page=3')
      .expect(200);
    expect(page.body.map((p: { id: number }) => p.id)).toEqual(byName!.ids.map(Number).slice(40, 60));
    expect(page.headers['x-total']).toBe(String(expected.length));
    const newest = await api(t, user.token).get('/api/v4/projects?search=bulk-1&per_page=100&page=3').expect(200);
    expect(newest.body.map((p: { id: number }) => p.id)).toEqual(
      expected
        .map(Number)
        .sort((a, b) => a - b)
        .slice(200, 300),
    );
  });
});

describe('GET /projects deep offset pages, admin', () => {
  it('page 52 of 20 by created_at desc equals rows 1,021-1,040 of the full order', async () => {
    const all = await queryOne<{ ids: number[] }>(
      t,
      `select array_agg(id order by created_at desc, id desc) as ids from projects`,
    );
    const res = await api(t, ROOT_TOKEN).get('/api/v4/projects?per_page=20&page=52').expect(200);
    expect(res.body.map((p: { id: number }) => p.id)).toEqual(all!.ids.map(Number).slice(1020, 1040));
    expect(res.headers['x-total']).toBe('1135');
  });
});

describe('GET /projects?search=', () => {
  it('matches name, path and description substrings (trigram-indexed), with visibility', async () => {
    const owner = await createUser(t);
    const ns = { id: owner.namespaceId, fullPath: owner.username };
    const byDescription = await createProject(t, {
      namespace: ns,
      path: 'plain-a',
      name: 'Plain A',
      visibility: 'public',
      description: 'has the needle-q7 inside',
    });
    const byName = await createProject(t, {
      namespace: ns,
      path: 'plain-b',
      name: 'Needle-Q7 tool',
      visibility: 'public',
    });
    const byPath = await createProject(t, {
      namespace: ns,
      path: 'x-needle-q7',
      name: 'Plain C',
      visibility: 'public',
    });
    const hidden = await createProject(t, {
      namespace: ns,
      path: 'plain-d',
      name: 'Plain D',
      visibility: 'private',
      description: 'needle-q7',
    });
    const admin = await api(t, ROOT_TOKEN).get('/api/v4/projects?search=needle-q7&order_by=id&sort=asc').expect(200);
    expect(admin.body.map((p: { id: number }) => p.id)).toEqual([byDescription.id, byName.id, byPath.id, hidden.id]);
    expect(admin.headers['x-total']).toBe('4');
    const anonymous = await api(t).get('/api/v4/projects?search=needle-q7&order_by=id&sort=asc').expect(200);
    expect(anonymous.body.map((p: { id: number }) => p.id)).toEqual([byDescription.id, byName.id, byPath.id]);
  });

  it('does not match across two columns (the index holds them joined by spaces; each column is rechecked)', async () => {
    const owner = await createUser(t);
    const ns = { id: owner.namespaceId, fullPath: owner.username };
    const p = await createProject(t, {
      namespace: ns,
      path: 'zq9-tail',
      name: 'Head wq8',
      visibility: 'public',
      description: 'end',
    });
    // "wq8 zq9" and "tail end" exist only in the joined text "Head wq8 zq9-tail end"
    for (const term of ['wq8 zq9', 'tail end', 'wq8 zq9-tail']) {
      const res = await api(t, ROOT_TOKEN)
        .get(`/api/v4/projects?search=${encodeURIComponent(term)}`)
        .expect(200);
      expect([res.body.length, res.headers['x-total']]).toEqual([0, '0']);
    }
    // a term with a space inside one column, and one without (which cannot span a boundary: no recheck needed)
    for (const term of ['d wq8', 'q8', '9-tai']) {
      const hit = await api(t, ROOT_TOKEN)
        .get(`/api/v4/projects?search=${encodeURIComponent(term)}`)
        .expect(200);
      expect(hit.body.map((x: { id: number }) => x.id)).toEqual([p.id]);
    }
    // a LIKE metacharacter in the term is literal text
    expect((await api(t, ROOT_TOKEN).get('/api/v4/projects?search=wq_').expect(200)).body).toEqual([]);
  });

  it("is one bitmap scan of projects_search_trgm (the query writes the index's expression)", async () => {
    const search = projectSearch('p', 'needle-q7');
    const plan = await t.orm.em.fork().transactional(async (em) => {
      await em.execute('set local enable_seqscan = off');
      return em.execute(`explain (format json) select p.id from projects p where ${search.sql}`, search.params);
    });
    const text = JSON.stringify(plan);
    expect(text).toContain('"Index Name":"projects_search_trgm"');
    expect(text).not.toMatch(/projects_(name|path|description)_trgm/);
  });
});

describe('GET /groups/:id/projects', () => {
  it("lists the group's projects and the projects shared with it", async () => {
    const other = await createGroup(t, { path: 'growth-other', visibility: 'public' });
    const shared = await createProject(t, { namespace: other, path: 'shared-in', visibility: 'public' });
    await t.orm.em
      .getConnection()
      .execute('insert into project_group_links (project_id, group_id, group_access) values (?, ?, 30)', [
        shared.id,
        groupId,
      ]);
    const res = await api(t, ROOT_TOKEN)
      .get(`/api/v4/groups/${groupId}/projects?per_page=100&order_by=id&sort=desc`)
      .expect(200);
    expect(res.headers['x-total']).toBe('1136');
    expect(res.body[0].id).toBe(shared.id);
  });
});

describe('growth indexes', () => {
  it('exist: one trigram index for project search, trigram on user e-mails, partial indexes for public projects and groups', async () => {
    const row = await queryOne<{ names: string[] }>(
      t,
      `select array_agg(indexname::text order by indexname) as names from pg_indexes
      where indexname in ('namespaces_public_group_name_idx', 'projects_search_trgm', 'projects_public_created_idx', 'users_email_trgm',
                          'projects_name_trgm', 'projects_path_trgm', 'projects_description_trgm')`,
    );
    expect(row!.names).toEqual([
      'namespaces_public_group_name_idx',
      'projects_public_created_idx',
      'projects_search_trgm',
      'users_email_trgm',
    ]);
  });
});
