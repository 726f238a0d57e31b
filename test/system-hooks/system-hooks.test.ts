import http from 'node:http';
import { Client } from 'pg';
import type { AddressInfo } from 'node:net';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createProject, createUser } from '../support/factories';
import { keys } from '../support/keys';
import { waitFor } from '../reliability/fault-support';

/**
 * GitLab 10.3's system hooks (/hooks), delivered from the transactional outbox to a real
 * HTTP receiver on loopback (allowed by allow_local_requests_from_system_hooks, off by default).
 */
const t = useTestApp({
  env: { SYSTEM_HOOK_RETRY_BASE_MS: '100', SYSTEM_HOOK_RETRY_MAX_MS: '400', SYSTEM_HOOK_TIMEOUT_MS: '2000' },
});
const admin = () => api(t, ROOT_TOKEN);

interface Received {
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A receiver that records every POST; `answer` decides the status of each (default 200). */
async function receiver(answer: (n: number, body: Record<string, unknown>) => number = () => 200) {
  const got: Received[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      n += 1;
      const status = answer(n, body);
      if (status === 200) got.push({ headers: req.headers, body });
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, got, attempts: () => n, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const allowLocal = (on: boolean) =>
  admin().put('/api/v4/application/settings').send({ allow_local_requests_from_system_hooks: on }).expect(200);
const names = (got: Received[]) => got.map((g) => g.body.event_name);

/** Entities::Hook of GitLab 10.3, then later GitLab's alert_status and disabled_until. */
const HOOK_KEYS = [
  'alert_status',
  'created_at',
  'disabled_until',
  'enable_ssl_verification',
  'id',
  'push_events',
  'repository_update_events',
  'tag_push_events',
  'url',
];

describe('/hooks: who may call it and what is refused', () => {
  it('is for administrators only', async () => {
    const u = await createUser(t);
    expect((await api(t).get('/api/v4/hooks').expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await api(t, u.token).get('/api/v4/hooks').expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await api(t, u.token).post('/api/v4/hooks').send({ url: 'http://example.com/' }).expect(403)).body).toEqual(
      { message: '403 Forbidden' },
    );
    expect((await api(t, u.token).delete('/api/v4/hooks/1').expect(403)).body).toEqual({ message: '403 Forbidden' });
    const gql = await api(t, u.token).post('/graphql').send({ query: '{ systemHooks { nodes { id } } }' }).expect(200);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('requires url and refuses local, private, link-local and non-http addresses unless local requests are allowed', async () => {
    expect((await admin().post('/api/v4/hooks').send({}).expect(400)).body).toEqual({ error: 'url is missing' });
    const refused = async (url: string) => (await admin().post('/api/v4/hooks').send({ url }).expect(400)).body;
    expect(await refused('http://127.0.0.1:9/x')).toEqual({
      message: { url: ['is blocked: Requests to localhost are not allowed'] },
    });
    expect(await refused('http://localhost/x')).toEqual({
      message: { url: ['is blocked: Requests to localhost are not allowed'] },
    });
    expect(await refused('http://[::ffff:127.0.0.1]/x')).toEqual({
      message: { url: ['is blocked: Requests to localhost are not allowed'] },
    });
    expect(await refused('http://[::1]/x')).toEqual({
      message: { url: ['is blocked: Requests to localhost are not allowed'] },
    });
    expect(await refused('http://10.1.2.3/x')).toEqual({
      message: { url: ['is blocked: Requests to the local network are not allowed'] },
    });
    expect(await refused('http://169.254.169.254/latest/meta-data')).toEqual({
      message: { url: ['is blocked: Requests to the local network are not allowed'] },
    });
    expect(await refused('http://192.168.0.1/')).toEqual({
      message: { url: ['is blocked: Requests to the local network are not allowed'] },
    });
    expect(await refused('ftp://example.com/')).toEqual({
      message: { url: ['is blocked: Only allowed schemes are http, https'] },
    });
    expect(await refused('not a url')).toEqual({
      message: { url: ['is blocked: Only allowed schemes are http, https'] },
    });
    expect((await admin().get('/api/v4/hooks').expect(200)).body).toEqual([]);
    await allowLocal(true);
    await admin().post('/api/v4/hooks').send({ url: 'http://127.0.0.1:9/x' }).expect(201);
  });

  it('answers 404 as GitLab 10.3 does for missing hooks', async () => {
    expect((await admin().get('/api/v4/hooks/999999').expect(404)).body).toEqual({ message: '404 Not found' });
    expect((await admin().delete('/api/v4/hooks/999999').expect(404)).body).toEqual({
      message: '404 System hook Not Found',
    });
    expect((await admin().get('/api/v4/hooks/abc').expect(400)).body).toEqual({ error: 'id is invalid' });
  });
});

describe('/hooks: create, list, test, delete', () => {
  it("creates with GitLab's defaults, never shows the token, lists, sends the test event and deletes", async () => {
    const r = await receiver();
    try {
      await allowLocal(true);
      const created = (await admin().post('/api/v4/hooks').send({ url: r.url, token: 's3cret' }).expect(201)).body;
      expect(keys(created)).toEqual(HOOK_KEYS);
      expect(created).toMatchObject({
        url: r.url,
        push_events: true,
        tag_push_events: false,
        repository_update_events: false,
        enable_ssl_verification: true,
        alert_status: 'executable',
        disabled_until: null,
      });
      expect(JSON.stringify(created)).not.toContain('s3cret');
      const list = await admin().get('/api/v4/hooks').expect(200);
      expect(list.body).toEqual([created]);
      expect(list.headers['x-total']).toBe('1');

      // GET /hooks/:id (GitLab 10.3) sends the test payload now and answers it.
      const tested = (await admin().get(`/api/v4/hooks/${created.id}`).expect(200)).body;
      expect(tested).toEqual({
        event_name: 'project_create',
        name: 'Ruby',
        path: 'ruby',
        project_id: 1,
        owner_name: 'Someone',
        owner_email: 'example@gitlabhq.com',
      });
      expect(r.got.map((g) => g.body)).toEqual([tested]);
      expect(r.got[0].headers).toMatchObject({
        'x-gitlab-event': 'System Hook',
        'x-gitlab-token': 's3cret',
        'content-type': 'application/json',
      });

      const logs = (await admin().get(`/api/v4/hooks/${created.id}/events`).expect(200)).body;
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({
        trigger: 'system_hooks',
        event_name: null,
        url: r.url,
        response_status: 200,
        response_body: 'ok',
        internal_error_message: null,
      });

      await admin().delete(`/api/v4/hooks/${created.id}`).expect(204);
      expect((await admin().get('/api/v4/hooks').expect(200)).body).toEqual([]);
      const audit = (await admin().get('/api/v4/audit_events?entity_type=Gitlab::Audit::InstanceScope').expect(200))
        .body as { details: Record<string, unknown> }[];
      // Newest first: removed, then added; the URL without credentials or query string.
      const own = audit.filter((a) => a.details.target_type === 'SystemHook' && a.details.target_details === r.url);
      expect(own.map((a) => [a.details.remove ? 'remove' : 'add', a.details.target_id])).toEqual([
        ['remove', String(created.id)],
        ['add', String(created.id)],
      ]);
    } finally {
      await r.close();
    }
  });

  it('is the same on GraphQL', async () => {
    const r = await receiver();
    try {
      await allowLocal(true);
      const made = await admin()
        .post('/graphql')
        .send({
          query: `mutation { systemHookCreate(input: { url: "${r.url}", enableSslVerification: false }) { systemHook { id: databaseId url enableSslVerification alertStatus failures pending } errors } }`,
        })
        .expect(200);
      expect(made.body.data.systemHookCreate.errors).toEqual([]);
      expect(made.body.data.systemHookCreate.systemHook).toMatchObject({
        url: r.url,
        enableSslVerification: false,
        alertStatus: 'executable',
        failures: 0,
        pending: 0,
      });
      const id = made.body.data.systemHookCreate.systemHook.id as number;
      const tested = await admin()
        .post('/graphql')
        .send({
          query: `mutation { systemHookTest(input: { id: ${id} }) { systemHookTestData { eventName name ownerEmail } errors } }`,
        })
        .expect(200);
      expect(tested.body.data.systemHookTest).toEqual({
        systemHookTestData: { eventName: 'project_create', name: 'Ruby', ownerEmail: 'example@gitlabhq.com' },
        errors: [],
      });
      const read = await admin()
        .post('/graphql')
        .send({
          query: `{ systemHooks { count nodes { id: databaseId url } } systemHookLogs(id: ${id}) { nodes { trigger responseStatus } } }`,
        })
        .expect(200);
      expect(read.body.data.systemHooks).toEqual({ count: 1, nodes: [{ id, url: r.url }] });
      expect(read.body.data.systemHookLogs.nodes).toEqual([{ trigger: 'system_hooks', responseStatus: 200 }]);
      const bad = await admin().post('/graphql').send({
        query: 'mutation { systemHookCreate(input: { url: "gopher://example.com/" }) { systemHook { id } errors } }',
      });
      expect(bad.body).toEqual({
        data: {
          systemHookCreate: { systemHook: null, errors: ['Url is blocked: Only allowed schemes are http, https'] },
        },
      });
      const del = await admin()
        .post('/graphql')
        .send({ query: `mutation { systemHookDelete(input: { id: ${id} }) { errors } }` })
        .expect(200);
      expect(del.body).toEqual({ data: { systemHookDelete: { errors: [] } } });
    } finally {
      await r.close();
    }
  });
});

describe('delivery of events', () => {
  it("sends GitLab 10.3's payloads for groups, projects and members, in commit order, with its headers", async () => {
    const r = await receiver();
    try {
      await allowLocal(true);
      await admin().post('/api/v4/hooks').send({ url: r.url, token: 'tok' }).expect(201);
      const bob = await createUser(t, { username: 'bob', name: 'Bob' });
      const group = (await admin().post('/api/v4/groups').send({ name: 'Acme', path: 'acme' }).expect(201)).body;
      const project = (
        await admin().post('/api/v4/projects').send({ name: 'Web', path: 'web', namespace_id: group.id }).expect(201)
      ).body;
      await admin()
        .post(`/api/v4/projects/${project.id}/members`)
        .send({ user_id: bob.id, access_level: 30 })
        .expect(201);
      await admin().post(`/api/v4/groups/${group.id}/members`).send({ user_id: bob.id, access_level: 20 }).expect(201);
      await admin().delete(`/api/v4/projects/${project.id}/members/${bob.id}`).expect(204);
      await admin().put(`/api/v4/projects/${project.id}`).send({ path: 'web2' }).expect(200);
      await admin().put(`/api/v4/groups/${group.id}`).send({ path: 'acme2' }).expect(200);
      await admin().delete(`/api/v4/groups/${group.id}/members/${bob.id}`).expect(204);
      await admin().delete(`/api/v4/groups/${group.id}`).expect(204);
      const expected = [
        'group_create',
        'user_add_to_group',
        'project_create',
        'user_add_to_team',
        'user_add_to_group',
        'user_remove_from_team',
        'project_rename',
        'group_rename',
        'user_remove_from_group',
        'project_destroy',
        'group_destroy',
      ];
      await waitFor('all events delivered', () => r.got.length >= expected.length, 15000);
      expect(names(r.got)).toEqual(expected);
      for (const g of r.got)
        expect(g.headers).toMatchObject({
          'x-gitlab-event': 'System Hook',
          'x-gitlab-token': 'tok',
          'content-type': 'application/json',
        });
      expect(new Set(r.got.map((g) => g.headers['x-gitlab-event-uuid'])).size).toBe(expected.length);

      const byName = (n: string, i = 0) => r.got.filter((g) => g.body.event_name === n)[i].body;
      const time = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(byName('group_create')).toEqual({
        event_name: 'group_create',
        created_at: time,
        updated_at: time,
        name: 'Acme',
        path: 'acme',
        full_path: 'acme',
        group_id: group.id,
        owner_name: null,
        owner_email: null,
      });
      expect(keys(byName('project_create'))).toEqual([
        'created_at',
        'event_name',
        'name',
        'owner_email',
        'owner_name',
        'path',
        'path_with_namespace',
        'project_id',
        'project_visibility',
        'updated_at',
      ]);
      expect(byName('project_create')).toMatchObject({
        name: 'Web',
        path: 'web',
        path_with_namespace: 'acme/web',
        project_id: project.id,
        owner_name: 'Acme',
        owner_email: '',
        project_visibility: 'private',
      });
      expect(byName('user_add_to_team')).toEqual({
        event_name: 'user_add_to_team',
        created_at: time,
        updated_at: time,
        project_name: 'Web',
        project_path: 'web',
        project_path_with_namespace: 'acme/web',
        project_id: project.id,
        user_username: 'bob',
        user_name: 'Bob',
        user_email: expect.any(String),
        user_id: bob.id,
        access_level: 'Developer',
        project_visibility: 'private',
      });
      expect(byName('user_add_to_group', 1)).toEqual({
        event_name: 'user_add_to_group',
        created_at: time,
        updated_at: time,
        group_name: 'Acme',
        group_path: 'acme',
        group_id: group.id,
        user_username: 'bob',
        user_name: 'Bob',
        user_email: expect.any(String),
        user_id: bob.id,
        group_access: 'Reporter',
      });
      expect(byName('project_rename')).toMatchObject({
        path: 'web2',
        path_with_namespace: 'acme/web2',
        old_path_with_namespace: 'acme/web',
      });
      expect(byName('group_rename')).toMatchObject({
        path: 'acme2',
        full_path: 'acme2',
        old_path: 'acme',
        old_full_path: 'acme',
      });
      expect(byName('project_destroy')).toMatchObject({ path_with_namespace: 'acme2/web2', project_id: project.id });
      expect(byName('group_destroy')).toMatchObject({ full_path: 'acme2', group_id: group.id });
    } finally {
      await r.close();
    }
  });

  it("sends user_create, user_rename and user_destroy (after the user's personal projects) as GitLab 10.3", async () => {
    const r = await receiver();
    try {
      await allowLocal(true);
      await admin().post('/api/v4/hooks').send({ url: r.url }).expect(201);
      const u = (
        await admin()
          .post('/api/v4/users')
          .send({ email: 'carol@example.com', password: 'secret-password-1', name: 'Carol', username: 'carol' })
          .expect(201)
      ).body;
      // A personal project written straight to the table (no event of its own).
      const [ns] = (await t.orm.em.getConnection().execute('select id from namespaces where owner_id = ?', [u.id])) as {
        id: number;
      }[];
      const mine = await createProject(t, { namespace: { id: ns.id }, path: 'mine' });
      await admin().put(`/api/v4/users/${u.id}`).send({ username: 'caroline' }).expect(200);
      await admin().delete(`/api/v4/users/${u.id}`).expect(204);
      const expected = ['user_create', 'user_rename', 'project_destroy', 'user_destroy'];
      await waitFor('user events', () => r.got.length >= expected.length, 10000);
      expect(names(r.got)).toEqual(expected);
      const time = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(r.got[0].body).toEqual({
        event_name: 'user_create',
        created_at: time,
        updated_at: time,
        name: 'Carol',
        email: 'carol@example.com',
        user_id: u.id,
        username: 'carol',
      });
      expect(r.got.find((g) => g.body.event_name === 'user_rename')?.body).toMatchObject({
        username: 'caroline',
        old_username: 'carol',
        user_id: u.id,
      });
      expect(r.got.find((g) => g.body.event_name === 'project_destroy')?.body).toMatchObject({
        project_id: mine.id,
        path_with_namespace: 'caroline/mine',
        owner_name: 'Carol',
        owner_email: 'carol@example.com',
      });
      expect(r.got.find((g) => g.body.event_name === 'user_destroy')?.body).toMatchObject({
        username: 'caroline',
        user_id: u.id,
      });
    } finally {
      await r.close();
    }
  });

  it('sends nothing for a write that failed, and nothing committed before the hook existed', async () => {
    const r = await receiver();
    try {
      await allowLocal(true);
      await admin().post('/api/v4/groups').send({ name: 'Before', path: 'before' }).expect(201);
      await admin().post('/api/v4/hooks').send({ url: r.url }).expect(201);
      await admin().post('/api/v4/groups').send({ name: 'Dup', path: 'before' }).expect(400);
      await admin().post('/api/v4/groups').send({ name: 'After', path: 'after' }).expect(201);
      await waitFor('the committed group', () => r.got.length >= 2, 10000);
      await new Promise((res) => setTimeout(res, 300));
      expect(r.got.map((g) => [g.body.event_name, g.body.name ?? g.body.group_name])).toEqual([
        ['group_create', 'After'],
        ['user_add_to_group', 'After'],
      ]);
    } finally {
      await r.close();
    }
  });

  it('retries a failing receiver with backoff, in order, and logs every attempt', async () => {
    // The first two attempts fail (500): the first event is retried, the second waits behind it.
    const r = await receiver((n) => (n <= 2 ? 500 : 200));
    try {
      await allowLocal(true);
      const hook = (await admin().post('/api/v4/hooks').send({ url: r.url }).expect(201)).body;
      await admin().post('/api/v4/groups').send({ name: 'One', path: 'one' }).expect(201);
      await waitFor('delivered after retries', () => r.got.length >= 2, 15000);
      expect(names(r.got)).toEqual(['group_create', 'user_add_to_group']);
      expect(r.attempts()).toBe(4);
      const logs = (await admin().get(`/api/v4/hooks/${hook.id}/events`).expect(200)).body as {
        response_status: number;
        event_name: string;
      }[];
      expect(logs.map((l) => [l.event_name, l.response_status]).reverse()).toEqual([
        ['group_create', 500],
        ['group_create', 500],
        ['group_create', 200],
        ['user_add_to_group', 200],
      ]);
      const after = (
        await admin()
          .post('/graphql')
          .send({ query: `{ systemHook(id: ${hook.id}) { failures pending alertStatus disabledUntil } }` })
          .expect(200)
      ).body.data.systemHook;
      expect(after).toEqual({ failures: 0, pending: 0, alertStatus: 'executable', disabledUntil: null });
    } finally {
      await r.close();
    }
  });

  it('shows a hook that keeps failing as temporarily disabled, and re-checks the address at delivery time', async () => {
    const r = await receiver(() => 500);
    try {
      await allowLocal(true);
      const hook = (await admin().post('/api/v4/hooks').send({ url: r.url }).expect(201)).body;
      await admin().post('/api/v4/groups').send({ name: 'Two', path: 'two' }).expect(201);
      await waitFor(
        'four failures',
        async () => (await admin().get('/api/v4/hooks').expect(200)).body[0].alert_status === 'temporarily_disabled',
        15000,
      );
      const shown = (await admin().get('/api/v4/hooks').expect(200)).body[0];
      expect(shown.disabled_until === null || typeof shown.disabled_until === 'string').toBe(true);
      // Local requests switched off again: the next attempt is refused before connecting.
      await allowLocal(false);
      const before = r.attempts();
      await waitFor(
        'a blocked attempt logged',
        async () => {
          const logs = (await admin().get(`/api/v4/hooks/${hook.id}/events`).expect(200)).body as {
            internal_error_message: string | null;
          }[];
          return logs[0].internal_error_message === 'is blocked: Requests to localhost are not allowed';
        },
        15000,
      );
      expect(r.attempts()).toBe(before);
      expect(r.got).toEqual([]);
    } finally {
      await r.close();
    }
  });

  it("concurrent writes: every event once, each group's in order; an older transaction still running holds later events back until it ends", async () => {
    const r = await receiver();
    try {
      await allowLocal(true);
      await admin().post('/api/v4/hooks').send({ url: r.url }).expect(201);
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          admin()
            .post('/api/v4/groups')
            .send({ name: `C${i}`, path: `c-${i}` })
            .expect(201),
        ),
      );
      await waitFor('24 events', () => r.got.length >= 24, 15000);
      await new Promise((res) => setTimeout(res, 300));
      expect(r.got).toHaveLength(24);
      for (let i = 0; i < 12; i += 1) {
        const mine = r.got.filter((g) => (g.body.path ?? g.body.group_path) === `c-${i}`).map((g) => g.body.event_name);
        expect(mine).toEqual(['group_create', 'user_add_to_group']);
      }

      // A transaction that took its id before the next write and is still open: the write commits, but
      // its events wait (they could otherwise overtake an event that transaction may still write).
      const older = new Client({ connectionString: t.orm.config.getClientUrl() });
      await older.connect();
      try {
        await older.query('begin');
        await older.query('select pg_current_xact_id()');
        await admin().post('/api/v4/groups').send({ name: 'Held', path: 'held' }).expect(201);
        await new Promise((res) => setTimeout(res, 600));
        expect(r.got.filter((g) => g.body.path === 'held')).toEqual([]);
        await older.query('rollback');
      } finally {
        await older.end();
      }
      await waitFor('the held events', () => r.got.length >= 26, 5000);
      expect(r.got.slice(24).map((g) => g.body.event_name)).toEqual(['group_create', 'user_add_to_group']);
    } finally {
      await r.close();
    }
  });

  it('delivers each event once with two instances on one database', async () => {
    const r = await receiver();
    const second = await t.secondInstance();
    try {
      await allowLocal(true);
      await admin().post('/api/v4/hooks').send({ url: r.url }).expect(201);
      for (let i = 0; i < 10; i += 1) {
        const app = i % 2 === 0 ? t.app : second.app;
        await api({ app }, ROOT_TOKEN)
          .post('/api/v4/groups')
          .send({ name: `G${i}`, path: `g-${i}` })
          .expect(201);
      }
      await waitFor('20 events', () => r.got.length >= 20, 15000);
      await new Promise((res) => setTimeout(res, 500));
      const created = r.got.filter((g) => g.body.event_name === 'group_create').map((g) => g.body.path);
      expect(created).toEqual(Array.from({ length: 10 }, (_, i) => `g-${i}`));
      expect(r.got).toHaveLength(20);
    } finally {
      await second.close();
      await r.close();
    }
  });
});
