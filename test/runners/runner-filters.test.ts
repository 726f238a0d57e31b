import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createProject } from '../support/factories';
import { createJob, createRunner } from './runner-factories';

/** What a runner fleet dashboard filters and shows: status, paused, tags, search (REST: later GitLab's status, tag_list). */
const t = useTestApp();
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('runner status, tags and search', () => {
  it('status ONLINE / OFFLINE / STALE / NEVER_CONTACTED, paused, tagList and search on both surfaces', async () => {
    const now = Date.now();
    const online = await createRunner(t, {
      shared: true,
      description: 'fast linux box',
      contactedAt: new Date(now - 5 * 60 * 1000),
      tagList: ['linux', 'docker'],
    });
    const offline = await createRunner(t, {
      shared: true,
      description: 'slow mac',
      contactedAt: new Date(now - 2 * DAY),
      tagList: ['macos'],
      active: false,
    });
    const stale = await createRunner(t, {
      shared: true,
      description: 'old linux',
      contactedAt: new Date(now - 100 * DAY),
      tagList: ['linux'],
    });
    const fresh = await createRunner(t, { shared: true, description: 'new one', contactedAt: null });
    await t.orm.em
      .getConnection()
      .execute('update ci_runners set created_at = ? where id = ?', [new Date(now - 200 * DAY), stale.id]);

    const gql = async (args: string) =>
      (
        (
          await api(t, ROOT_TOKEN)
            .graphql(`{ runners(${args}) { nodes { id: databaseId status paused } } }`)
            .expect(200)
        ).body.data.runners.nodes as { id: number }[]
      ).map((r) => r.id);
    const all = (await api(t, ROOT_TOKEN).graphql('{ runners { nodes { id: databaseId status paused } } }').expect(200))
      .body.data.runners.nodes;
    expect(all).toEqual([
      { id: online.id, status: 'ONLINE', paused: false },
      { id: offline.id, status: 'OFFLINE', paused: true },
      { id: stale.id, status: 'STALE', paused: false },
      { id: fresh.id, status: 'NEVER_CONTACTED', paused: false },
    ]);
    expect(await gql('status: ONLINE')).toEqual([online.id]);
    expect(await gql('status: OFFLINE')).toEqual([offline.id]);
    expect(await gql('status: STALE')).toEqual([stale.id]);
    expect(await gql('status: NEVER_CONTACTED')).toEqual([fresh.id]);
    expect(await gql('tagList: ["linux"]')).toEqual([online.id, stale.id]);
    expect(await gql('tagList: ["linux", "docker"]')).toEqual([online.id]);
    expect(await gql('search: "LINUX"')).toEqual([online.id, stale.id]);
    expect(await gql('search: "%"')).toEqual([]);

    const rest = async (q: string) =>
      ((await api(t, ROOT_TOKEN).get(`/api/v4/runners/all?${q}`).expect(200)).body as { id: number }[]).map(
        (r) => r.id,
      );
    expect(await rest('status=stale')).toEqual([stale.id]);
    expect(await rest('tag_list[]=linux&tag_list[]=docker')).toEqual([online.id]);
    expect(await rest('search=mac')).toEqual([offline.id]);
    expect((await api(t, ROOT_TOKEN).get('/api/v4/runners/all?status=sleepy').expect(400)).body).toEqual({
      error: 'status does not have a valid value',
    });
  });
});

describe('runner jobs newest first', () => {
  it('sort: DESC on runnerJobs, Runner.jobs and GET /runners/:id/jobs?sort=desc; ASC stays the default', async () => {
    const [owner] = (await t.orm.em.getConnection().execute('select id from namespaces where owner_id = 1')) as {
      id: number;
    }[];
    const p = await createProject(t, { namespace: { id: owner.id }, path: 'jobs-home' });
    const runner = await createRunner(t, { shared: true, contactedAt: new Date() });
    const jobs = [];
    for (let i = 0; i < 3; i += 1)
      jobs.push(await createJob(t, { runner, project: p, status: i === 1 ? 'failed' : 'success' }));
    const ids = jobs.map((j) => j.id);
    const rest = async (q: string) =>
      (
        (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${runner.id}/jobs${q}`).expect(200)).body as { id: number }[]
      ).map((j) => j.id);
    expect(await rest('')).toEqual(ids);
    expect(await rest('?sort=desc')).toEqual([...ids].reverse());
    expect(await rest('?sort=desc&status=success')).toEqual([ids[2], ids[0]]);
    const gql = (
      await api(t, ROOT_TOKEN)
        .graphql(`{ runners { nodes { id: databaseId jobs(sort: DESC, first: 2) { nodes { id: databaseId } } } } }`)
        .expect(200)
    ).body.data.runners.nodes;
    expect(gql.find((r: { id: number }) => r.id === runner.id).jobs.nodes.map((j: { id: number }) => j.id)).toEqual([
      ids[2],
      ids[1],
    ]);
  });
});
