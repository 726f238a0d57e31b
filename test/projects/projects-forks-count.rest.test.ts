import type { AbstractSqlDriver } from '@mikro-orm/knex';
import { registeredMigration } from '../support/migrations';
import { addGroupMember, createGroup, createProject, createUser, type TestProject } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * forks_count under concurrency: real parallel HTTP requests against the real database; afterwards
 * the source's forks_count (GET /projects/:id) must equal its forks (X-Total of GET /projects/:id/forks).
 */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const sql = (text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params);

/** What GET /projects/:id says, and how many forks GET /projects/:id/forks lists (as admin: all of them). */
async function counts(id: number): Promise<{ forksCount: number; forks: number }> {
  const project = await admin().get(`/api/v4/projects/${id}`).expect(200);
  const forks = await admin().get(`/api/v4/projects/${id}/forks`).expect(200);
  return { forksCount: project.body.forks_count, forks: Number(forks.headers['x-total']) };
}

async function publicSource(): Promise<TestProject> {
  return createProject(t, {
    namespace: await createGroup(t, { visibility: 'public' }),
    path: 'source',
    visibility: 'public',
  });
}

/** `n` users, each with a fork of `src` in their namespace (made one after the other). */
async function forksOf(src: TestProject, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1)
    ids.push(
      (
        await api(t, (await createUser(t)).token)
          .post(`/api/v4/projects/${src.id}/fork`)
          .expect(201)
      ).body.id,
    );
  return ids;
}

describe('POST /projects/:id/fork', () => {
  it('counts every fork when 15 users fork the same project at once (three rounds)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const src = await createProject(t, {
        namespace: await createGroup(t, { visibility: 'public' }),
        path: `source-${round}`,
        visibility: 'public',
      });
      const users = [];
      for (let i = 0; i < 15; i += 1) users.push(await createUser(t));
      const results = await Promise.all(users.map((u) => api(t, u.token).post(`/api/v4/projects/${src.id}/fork`)));
      expect(results.map((r) => r.status)).toEqual(Array(15).fill(201));
      expect(await counts(src.id)).toEqual({ forksCount: 15, forks: 15 });
    }
  });
});

describe('POST /projects/:id/fork/:forked_from_id', () => {
  it('counts every link when an admin links 8 projects to the same source at once', async () => {
    const src = await publicSource();
    const projects: TestProject[] = [];
    for (let i = 0; i < 8; i += 1)
      projects.push(await createProject(t, { namespace: await createGroup(t), path: `p${i}` }));
    const results = await Promise.all(projects.map((p) => admin().post(`/api/v4/projects/${p.id}/fork/${src.id}`)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(await counts(src.id)).toEqual({ forksCount: 8, forks: 8 });
  });
});

describe('DELETE /projects/:id/fork', () => {
  it('counts each unlink once when forks are unlinked at once, each of them twice (204 and 304)', async () => {
    const src = await publicSource();
    const forks = await forksOf(src, 8);
    const gone = forks.slice(0, 5);
    const results = await Promise.all([...gone, ...gone].map((id) => admin().delete(`/api/v4/projects/${id}/fork`)));
    for (const id of gone) {
      const mine = results
        .filter((_, i) => [...gone, ...gone][i] === id)
        .map((r) => r.status)
        .sort();
      expect(mine).toEqual([204, 304]);
    }
    expect(await counts(src.id)).toEqual({ forksCount: 3, forks: 3 });
  });
});

describe('DELETE /projects/:id', () => {
  it('takes deleted forks off the count when forks are deleted and unlinked at once', async () => {
    const src = await publicSource();
    const forks = await forksOf(src, 9);
    const deletes = forks.slice(0, 4).map((id) => admin().delete(`/api/v4/projects/${id}`));
    const unlinks = forks.slice(4, 7).map((id) => admin().delete(`/api/v4/projects/${id}/fork`));
    // The same fork unlinked and deleted at once: it leaves the count once.
    const both = [admin().delete(`/api/v4/projects/${forks[7]}/fork`), admin().delete(`/api/v4/projects/${forks[7]}`)];
    const results = await Promise.all([...deletes, ...unlinks, ...both]);
    expect(results.map((r) => r.status)).toEqual([202, 202, 202, 202, 204, 204, 204, results[7].status, 202]);
    expect([204, 304, 404]).toContain(results[7].status);
    expect(await counts(src.id)).toEqual({ forksCount: 1, forks: 1 });
  });
});

describe('DELETE /users/:id', () => {
  it("takes the deleted user's forks off their sources' count, with hard_delete those in their solely owned groups too", async () => {
    const src = await publicSource();
    const leaving = await createUser(t);
    await api(t, leaving.token).post(`/api/v4/projects/${src.id}/fork`).expect(201);
    await forksOf(src, 1);
    expect(await counts(src.id)).toEqual({ forksCount: 2, forks: 2 });
    await admin().delete(`/api/v4/users/${leaving.id}`).expect(204);
    expect(await counts(src.id)).toEqual({ forksCount: 1, forks: 1 });

    const owner = await createUser(t);
    const solo = await createGroup(t, { path: 'solo', visibility: 'public' });
    await addGroupMember(t, solo, owner, 50);
    const sub = await createGroup(t, { path: 'sub', parent: solo, visibility: 'public' });
    await api(t, owner.token)
      .post(`/api/v4/projects/${src.id}/fork`)
      .send({ namespace: String(sub.id) })
      .expect(201);
    await api(t, owner.token).post(`/api/v4/projects/${src.id}/fork`).expect(201);
    expect(await counts(src.id)).toEqual({ forksCount: 3, forks: 3 });
    await admin().delete(`/api/v4/users/${owner.id}`).query({ hard_delete: true }).expect(204);
    expect(await counts(src.id)).toEqual({ forksCount: 1, forks: 1 });
  });
});

describe('DELETE /groups/:id', () => {
  it("takes the forks in the deleted group and its subgroups off their sources' count", async () => {
    const src = await publicSource();
    const doomed = await createGroup(t, { path: 'doomed', visibility: 'public' });
    const child = await createGroup(t, { path: 'child', parent: doomed, visibility: 'public' });
    await admin()
      .post(`/api/v4/projects/${src.id}/fork`)
      .send({ namespace: String(doomed.id) })
      .expect(201);
    await admin()
      .post(`/api/v4/projects/${src.id}/fork`)
      .send({ namespace: String(child.id) })
      .expect(201);
    await forksOf(src, 1);
    expect(await counts(src.id)).toEqual({ forksCount: 3, forks: 3 });
    await admin().delete(`/api/v4/groups/${doomed.id}`).expect(204);
    expect(await counts(src.id)).toEqual({ forksCount: 1, forks: 1 });
  });

  it('counts right when a fork in the group is deleted or unlinked while the group is deleted (five rounds each, no 5xx)', async () => {
    const src = await publicSource();
    for (let round = 0; round < 10; round += 1) {
      const g = await createGroup(t, { path: `racing-${round}`, visibility: 'public' });
      const fork = (
        await admin()
          .post(`/api/v4/projects/${src.id}/fork`)
          .send({ namespace: String(g.id) })
          .expect(201)
      ).body.id;
      const other =
        round % 2 === 0 ? admin().delete(`/api/v4/projects/${fork}`) : admin().delete(`/api/v4/projects/${fork}/fork`);
      const [a, b] = await Promise.all([admin().delete(`/api/v4/groups/${g.id}`), other]);
      expect([a.status, b.status].filter((s) => s >= 500)).toEqual([]);
      expect(await counts(src.id)).toEqual({ forksCount: 0, forks: 0 });
    }
  });
});

describe('migration 20261210090000 (forks_count recount)', () => {
  it('repairs the counts stored before it: too few, and forks counted that are gone', async () => {
    const src = await publicSource();
    await forksOf(src, 3);
    const alone = await createProject(t, { namespace: await createGroup(t), path: 'alone' });
    await sql('update projects set forks_count = 1 where id = ?', [src.id]);
    await sql('update projects set forks_count = 2 where id = ?', [alone.id]);
    const ForksCountRecount = registeredMigration('Migration20261210090000_projects_forks_count_recount');
    const migration = new ForksCountRecount(t.orm.em.getDriver() as AbstractSqlDriver, t.orm.config);
    await migration.up();
    for (const q of migration.getQueries()) await sql(String(q));
    expect(await counts(src.id)).toEqual({ forksCount: 3, forks: 3 });
    expect(await counts(alone.id)).toEqual({ forksCount: 0, forks: 0 });
  });
});
