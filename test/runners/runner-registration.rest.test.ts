import pino from 'pino';
import request from 'supertest';
import { buildApp } from '../../src/app';
import { MODULES } from '../../src/modules';
import { createGroup, createProject, queryOne } from '../support/factories';
import { api, EXTERNAL_URL, ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';
import { runnerTokenSlot } from '../../src/modules/runners/runner-token';
import { createRunner } from './runner-factories';
import { runnerWorld } from './runner-fixture';

const t = useTestApp();

async function instanceToken(): Promise<string> {
  const res = await api(t, ROOT_TOKEN).get('/api/v4/application/settings');
  expect(res.status).toBe(200);
  return res.body.runners_registration_token;
}

describe('POST /runners (registration)', () => {
  it('registers a shared runner with the instance registration token (201 id + token)', async () => {
    const res = await request(t.app)
      .post('/api/v4/runners')
      .type('form')
      .send(
        `token=${await instanceToken()}&description=docker-1&tag_list=docker,linux&info[name]=gitlab-runner&info[version]=10.3.0&info[platform]=linux&info[architecture]=amd64&info[revision]=abc`,
      );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'token']);
    expect(res.body.token).toMatch(/^[0-9a-f]{30}$/);
    const detail = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${res.body.id}`)).body;
    expect(detail).toMatchObject({
      description: 'docker-1',
      is_shared: true,
      active: true,
      locked: false,
      run_untagged: true,
      tag_list: ['docker', 'linux'],
      access_level: 'not_protected',
      name: 'gitlab-runner',
      version: '10.3.0',
      platform: 'linux',
      architecture: 'amd64',
      revision: 'abc',
      contacted_at: null,
      token: res.body.token,
      projects: [],
    });
    // At rest the token is sealed: the database holds neither it nor an unkeyed hash of it.
    const row = await queryOne<{ token: string; token_digest: string }>(
      t,
      'select token, token_digest from ci_runners where id = ?',
      [res.body.id],
    );
    expect(row?.token).not.toContain(res.body.token);
    // Sealed for its own row (v2): it opens there only.
    expect(row!.token).toMatch(/^v2:/);
    expect(TEST_SECRETS.open(row!.token, runnerTokenSlot(res.body.id))).toBe(res.body.token);
    expect(() => TEST_SECRETS.open(row!.token, runnerTokenSlot(res.body.id + 1))).toThrow();
    expect(row?.token_digest).toBe(TEST_SECRETS.digest(res.body.token));
  });

  it("registers a specific runner enabled in the project with the project's runners_token (JSON body)", async () => {
    const w = await runnerWorld(t);
    const res = await request(t.app)
      .post('/api/v4/runners')
      .send({
        token: w.project.runnersToken,
        description: 'proj',
        locked: true,
        run_untagged: false,
        tag_list: ['ruby'],
        access_level: 'ref_protected',
        active: false,
        info: {
          name: 'gitlab-runner',
          version: '10.3.0',
          executor: 'docker',
          features: { variables: true, cache: true },
        },
      });
    expect(res.status).toBe(201);
    const detail = (await api(t, w.master.token).get(`/api/v4/runners/${res.body.id}`)).body;
    expect(detail).toMatchObject({
      is_shared: false,
      locked: true,
      run_untagged: false,
      tag_list: ['ruby'],
      access_level: 'ref_protected',
      active: false,
      token: res.body.token,
      name: 'gitlab-runner',
      version: '10.3.0',
      platform: null,
    });
    expect(detail.projects.map((p: { id: number }) => p.id)).toEqual([w.project.id]);
    expect((await api(t, w.master.token).get('/api/v4/runners')).body.map((r: { id: number }) => r.id)).toContain(
      res.body.id,
    );
  });

  it('uses the runners_token a Master sees on the project', async () => {
    const p = (await api(t, ROOT_TOKEN).post('/api/v4/projects').send({ name: 'fresh' })).body;
    expect(typeof p.runners_token).toBe('string');
    expect((await request(t.app).post('/api/v4/runners').send({ token: p.runners_token })).status).toBe(201);
  });

  it('refuses an unknown token with 403, a missing one with 400, and the tags rule with 400', async () => {
    const w = await runnerWorld(t);
    expect((await request(t.app).post('/api/v4/runners').send({ token: 'nope' })).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await request(t.app).post('/api/v4/runners').send({ token: w.specific.token })).status).toBe(403);
    expect((await request(t.app).post('/api/v4/runners').send({})).body).toEqual({ error: 'token is missing' });
    const bad = await request(t.app)
      .post('/api/v4/runners')
      .send({ token: w.project.runnersToken, run_untagged: false });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] },
    });
    expect((await queryOne<{ n: string }>(t, 'select count(*) as n from ci_runners'))?.n).toBe('3');
  });
});

describe('DELETE /runners and POST /runners/verify (runner token)', () => {
  it('verifies (200, records contacted_at) and unregisters (204)', async () => {
    const g = await createGroup(t);
    const r = await createRunner(t, { projects: [await createProject(t, { namespace: g })] });
    const verify = await request(t.app).post('/api/v4/runners/verify').send({ token: r.token });
    expect(verify.status).toBe(200);
    expect(
      (await queryOne<{ contacted_at: string | null }>(t, 'select contacted_at from ci_runners where id = ?', [r.id]))
        ?.contacted_at,
    ).not.toBeNull();
    expect((await request(t.app).post('/api/v4/runners/verify').send({ token: 'x' })).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await request(t.app).post('/api/v4/runners/verify').send({})).body).toEqual({ error: 'token is missing' });
    expect((await request(t.app).delete('/api/v4/runners').send({ token: 'x' })).status).toBe(403);
    const del = await request(t.app).delete('/api/v4/runners').send({ token: r.token });
    expect(del.status).toBe(204);
    expect(await queryOne(t, 'select 1 from ci_runners where id = ?', [r.id])).toBeUndefined();
  });
});

describe('online (contacted within the last hour), with a fixed clock', () => {
  it('counts a runner online for an hour after it verified, then offline', async () => {
    let now = new Date('2026-05-01T12:00:00.000Z');
    const { app, stop } = await buildApp({
      orm: t.orm,
      logger: pino({ level: 'silent' }),
      externalUrl: EXTERNAL_URL,
      secrets: TEST_SECRETS,
      modules: MODULES,
      clock: { now: () => now },
    });
    try {
      const r = await createRunner(t, { shared: true });
      const online = async () =>
        (await request(app).get('/api/v4/runners/all?scope=online').set('PRIVATE-TOKEN', ROOT_TOKEN)).body.map(
          (x: { id: number }) => x.id,
        );
      expect(await online()).toEqual([]);
      expect((await request(app).post('/api/v4/runners/verify').send({ token: r.token })).status).toBe(200);
      const detail = await request(app).get(`/api/v4/runners/${r.id}`).set('PRIVATE-TOKEN', ROOT_TOKEN);
      expect(detail.body.contacted_at).toBe('2026-05-01T12:00:00.000Z');
      now = new Date('2026-05-01T12:59:59.000Z');
      expect(await online()).toEqual([r.id]);
      const gql = await request(app)
        .post('/graphql')
        .set('PRIVATE-TOKEN', ROOT_TOKEN)
        .send({ query: `{ runner(id: ${r.id}) { online } }` });
      expect(gql.body.data.runner.online).toBe(true);
      now = new Date('2026-05-01T13:00:01.000Z');
      expect(await online()).toEqual([]);
    } finally {
      await stop();
    }
  });
});

describe('project runners_token of a project stored before the runners migration', () => {
  it('is generated on first read by a Master (sealed + digest) and then registers runners', async () => {
    const w = await runnerWorld(t);
    await t.orm.em
      .getConnection()
      .execute('update projects set runners_token = null, runners_token_digest = null where id = ?', [w.project.id]);
    const first = (await api(t, w.master.token).get(`/api/v4/projects/${w.project.id}`)).body.runners_token;
    expect(first).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect((await api(t, w.master.token).get(`/api/v4/projects/${w.project.id}`)).body.runners_token).toBe(first);
    const row = await queryOne<{ runners_token: string; runners_token_digest: string }>(
      t,
      'select runners_token, runners_token_digest from projects where id = ?',
      [w.project.id],
    );
    expect(row?.runners_token).not.toContain(first);
    expect(row?.runners_token_digest).toBe(TEST_SECRETS.digest(first));
    expect((await request(t.app).post('/api/v4/runners').send({ token: first })).status).toBe(201);
  });
});
