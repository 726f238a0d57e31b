import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { addGroupMember, createUser } from '../support/factories';
import { keys } from '../support/keys';
import pino from 'pino';
import { buildApp } from '../../src/app';
import { MODULES } from '../../src/modules';
import { TEST_SECRETS } from '../support/test-app';
import { waitFor } from '../reliability/fault-support';

/** Audit events in GitLab's EE API shape, written in the same transaction as their change. */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

beforeEach(async () => {
  await t.orm.em.getConnection().execute('delete from audit_events');
});

const events = async (query = '') =>
  (await admin().get(`/api/v4/audit_events${query}`).expect(200)).body as {
    id: number;
    details: Record<string, unknown>;
    [k: string]: unknown;
  }[];

describe('GET /audit_events', () => {
  it('is for administrators only', async () => {
    const u = await createUser(t);
    expect((await api(t).get('/api/v4/audit_events').expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await api(t, u.token).get('/api/v4/audit_events').expect(403)).body).toEqual({ message: '403 Forbidden' });
    expect((await api(t, u.token).get('/api/v4/audit_events/1').expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await admin().get('/api/v4/audit_events/999999').expect(404)).body).toEqual({ message: '404 Not found' });
  });

  it("records one change per application setting, with GitLab's keys, secrets filtered, newest first", async () => {
    await admin()
      .put('/api/v4/application/settings')
      .set('X-Request-Id', 'req-audit-1')
      .send({ default_projects_limit: 7, signup_enabled: false })
      .expect(200);
    await admin()
      .put('/api/v4/application/settings')
      .send({ errortracker_enabled: true, errortracker_dsn: 'https://secret-dsn@example.com/1' })
      .expect(200);
    const list = await events();
    // Newest first; one request's changes in the catalogue's order, so reversed here.
    expect(list.map((e) => e.details.change)).toEqual([
      'errortracker_enabled',
      'errortracker_dsn',
      'signup_enabled',
      'default_projects_limit',
    ]);
    const limit = list[3];
    expect(keys(limit)).toEqual(['author_id', 'created_at', 'details', 'entity_id', 'entity_type', 'id']);
    expect(limit).toMatchObject({ author_id: 1, entity_id: 1, entity_type: 'Gitlab::Audit::InstanceScope' });
    expect(limit.details).toEqual({
      change: 'default_projects_limit',
      from: '100000',
      to: '7',
      author_name: 'Administrator',
      target_id: '1',
      target_type: 'ApplicationSetting',
      target_details: 'application_settings',
      ip_address: expect.stringMatching(/127\.0\.0\.1/),
      entity_path: '',
    });
    expect(list[1].details).toMatchObject({ change: 'errortracker_dsn', from: '[FILTERED]', to: '[FILTERED]' });
    expect(JSON.stringify(list)).not.toContain('secret-dsn');
    const row = await t.orm.em
      .getConnection()
      .execute(`select request_id from audit_events where details->>'change' = 'default_projects_limit'`);
    expect(row[0].request_id).toBe('req-audit-1');
    // GET /audit_events/:id and the GraphQL twin agree.
    expect((await admin().get(`/api/v4/audit_events/${limit.id}`).expect(200)).body).toEqual(limit);
    const gql = await admin().graphql(
      `{ auditEvent(id: ${limit.id}) { id: databaseId entityType details { change from to authorName targetType } } }`,
    );
    expect(gql.body.data.auditEvent).toEqual({
      id: String(limit.id),
      entityType: 'Gitlab::Audit::InstanceScope',
      details: {
        change: 'default_projects_limit',
        from: '100000',
        to: '7',
        authorName: 'Administrator',
        targetType: 'ApplicationSetting',
      },
    });
  });

  it('records broadcast messages, feature flags and runner changes; a refused write records nothing', async () => {
    const m = (await admin().post('/api/v4/broadcast_messages').send({ message: 'maintenance' }).expect(201)).body;
    await admin().put(`/api/v4/broadcast_messages/${m.id}`).send({ color: '#000000' }).expect(200);
    await admin().put(`/api/v4/broadcast_messages/${m.id}`).send({ color: 'not-a-colour' }).expect(400);
    await admin().delete(`/api/v4/broadcast_messages/${m.id}`).expect(204);
    await admin().post('/api/v4/features/new_ui').send({ value: 'true' }).expect(201);
    await admin().delete('/api/v4/features/new_ui').expect(204);
    const token = (await admin().get('/api/v4/application/settings')).body.runners_registration_token;
    const runner = (await api(t).post('/api/v4/runners').send({ token, description: 'builder' }).expect(201)).body;
    await t.orm.em
      .getConnection()
      .execute(`delete from audit_events where details->>'target_type' = 'ApplicationSetting'`);
    await admin().put(`/api/v4/runners/${runner.id}`).send({ active: false }).expect(200);
    await admin().delete(`/api/v4/runners/${runner.id}`).expect(204);
    const summary = (await events())
      .reverse()
      .map((e) => [
        e.details.target_type,
        e.details.add ?? e.details.remove ?? e.details.change,
        e.details.from,
        e.details.to,
      ]);
    expect(summary).toEqual([
      ['BroadcastMessage', 'broadcast_message', undefined, undefined],
      ['BroadcastMessage', 'color', '#E75E40', '#000000'],
      ['BroadcastMessage', 'broadcast_message', undefined, undefined],
      ['Feature', 'feature_flag.boolean', 'false', 'true'],
      ['Feature', 'feature_flag', undefined, undefined],
      ['Ci::Runner', 'active', 'true', 'false'],
      ['Ci::Runner', 'runner', undefined, undefined],
    ]);
  });

  it('no change without its event: when the event cannot be written, the change is rolled back', async () => {
    const conn = t.orm.em.getConnection();
    await conn.execute(
      `create function audit_fail() returns trigger language plpgsql as $$ begin raise exception 'injected audit failure'; end $$`,
    );
    await conn.execute(
      'create trigger audit_fail before insert on audit_events for each row execute function audit_fail()',
    );
    try {
      await admin().put('/api/v4/application/settings').send({ default_projects_limit: 42 }).expect(500);
      await admin().post('/api/v4/broadcast_messages').send({ message: 'lost' }).expect(500);
    } finally {
      await conn.execute('drop trigger audit_fail on audit_events');
      await conn.execute('drop function audit_fail()');
    }
    expect((await admin().get('/api/v4/application/settings')).body.default_projects_limit).toBe(100000);
    expect((await admin().get('/api/v4/broadcast_messages')).body).toEqual([]);
    expect(await events()).toEqual([]);
  });

  it('filters by entity and time, and pages like every list', async () => {
    await admin().put('/api/v4/application/settings').send({ default_projects_limit: 1 }).expect(200);
    await admin().put('/api/v4/application/settings').send({ default_projects_limit: 2 }).expect(200);
    await admin().put('/api/v4/application/settings').send({ default_projects_limit: 3 }).expect(200);
    const page = await admin()
      .get('/api/v4/audit_events?per_page=2&entity_type=Gitlab::Audit::InstanceScope&entity_id=1')
      .expect(200);
    expect(page.headers['x-total']).toBe('3');
    expect(page.body.map((e: { details: { to: string } }) => e.details.to)).toEqual(['3', '2']);
    expect(await events('?entity_type=Group')).toEqual([]);
    expect(await events(`?created_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual(
      [],
    );
    expect(
      await events(`?created_before=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`),
    ).toHaveLength(3);
    expect((await admin().get('/api/v4/audit_events?created_after=yesterday').expect(400)).body).toEqual({
      error: 'created_after is invalid',
    });
  });
});

describe('group audit events', () => {
  it('records create, change and removal of a group; its Owners read them at /groups/:id/audit_events', async () => {
    const owner = await createUser(t, { username: 'gowner' });
    const dev = await createUser(t, { username: 'gdev' });
    const g = (await api(t, owner.token).post('/api/v4/groups').send({ name: 'Audited', path: 'audited' }).expect(201))
      .body;
    await addGroupMember(t, g, dev, 30);
    await api(t, owner.token)
      .put(`/api/v4/groups/${g.id}`)
      .send({ description: 'now described', visibility: 'internal' })
      .expect(200);
    const list = (await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events`).expect(200)).body as {
      entity_type: string;
      entity_id: number;
      details: Record<string, string>;
    }[];
    expect(list.map((e) => [e.details.add ?? e.details.change, e.details.from, e.details.to])).toEqual([
      ['visibility_level', 'private', 'internal'],
      ['description', '', 'now described'],
      ['group', undefined, undefined],
    ]);
    const ownerName = (await admin().get(`/api/v4/users/${owner.id}`)).body.name;
    expect(
      list.every(
        (e) =>
          e.entity_type === 'Group' &&
          e.entity_id === g.id &&
          e.details.entity_path === 'audited' &&
          e.details.author_name === ownerName,
      ),
    ).toBe(true);
    expect((await api(t, dev.token).get(`/api/v4/groups/${g.id}/audit_events`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await api(t, dev.token).get('/api/v4/groups/999999/audit_events').expect(404)).body).toEqual({
      message: '404 Group Not Found',
    });
    await admin().get(`/api/v4/groups/${g.id}/audit_events`).expect(200);
    await api(t, owner.token).delete(`/api/v4/groups/${g.id}`).expect(204);
    const removed = await events('?entity_type=Group');
    expect(removed[0].details).toMatchObject({ remove: 'group', target_details: 'audited' });
  });
});

describe('project audit events', () => {
  it('records create, change, archive and removal of a project; its Masters read them at /projects/:id/audit_events', async () => {
    const owner = await createUser(t, { username: 'powner' });
    const other = await createUser(t, { username: 'pother' });
    const p = (
      await api(t, owner.token).post('/api/v4/projects').send({ name: 'Audited', path: 'audited-p' }).expect(201)
    ).body;
    await api(t, owner.token).put(`/api/v4/projects/${p.id}`).send({ description: 'described' }).expect(200);
    await api(t, owner.token).post(`/api/v4/projects/${p.id}/archive`).expect(201);
    const list = (await api(t, owner.token).get(`/api/v4/projects/${p.id}/audit_events`).expect(200)).body as {
      entity_type: string;
      details: Record<string, string>;
    }[];
    expect(
      list.map((e) => [e.details.add ?? e.details.change, e.details.from, e.details.to, e.details.entity_path]),
    ).toEqual([
      ['archived', 'false', 'true', 'powner/audited-p'],
      ['description', '', 'described', 'powner/audited-p'],
      ['project', undefined, undefined, 'powner/audited-p'],
    ]);
    expect((await api(t, other.token).get(`/api/v4/projects/${p.id}/audit_events`).expect(404)).body).toEqual({
      message: '404 Project Not Found',
    });
    const gql = await api(t, owner.token).graphql(
      `{ project(id: "${p.id}") { auditEvents { count nodes { details { change } } } } }`,
    );
    expect(gql.body.data.project.auditEvents.count).toBe(3);
    await api(t, owner.token).delete(`/api/v4/projects/${p.id}`).expect(202);
    expect((await events('?entity_type=Project'))[0].details).toMatchObject({
      remove: 'project',
      target_details: 'powner/audited-p',
    });
  });
});

describe('one audit event of a group or project', () => {
  it('GET /groups/:id/audit_events/:audit_event_id and /projects/:id/audit_events/:audit_event_id: its own events only, for Owners / Masters', async () => {
    const owner = await createUser(t, { username: 'oneowner' });
    const g = (await api(t, owner.token).post('/api/v4/groups').send({ name: 'One', path: 'one-g' }).expect(201)).body;
    const p = (await api(t, owner.token).post('/api/v4/projects').send({ name: 'One', path: 'one-p' }).expect(201))
      .body;
    const [ge] = (await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events`).expect(200)).body;
    const [pe] = (await api(t, owner.token).get(`/api/v4/projects/${p.id}/audit_events`).expect(200)).body;
    expect((await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events/${ge.id}`).expect(200)).body).toEqual(
      ge,
    );
    expect((await api(t, owner.token).get(`/api/v4/projects/${p.id}/audit_events/${pe.id}`).expect(200)).body).toEqual(
      pe,
    );
    // Another entity's event through this group or project: 404, as a missing one.
    expect((await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events/${pe.id}`).expect(404)).body).toEqual({
      message: '404 Not found',
    });
    expect((await api(t, owner.token).get(`/api/v4/projects/${p.id}/audit_events/${ge.id}`).expect(404)).body).toEqual({
      message: '404 Not found',
    });
    expect((await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events/abc`).expect(400)).body).toEqual({
      error: 'audit_event_id is invalid',
    });
    const stranger = await createUser(t, { username: 'onestranger' });
    expect(
      (await api(t, stranger.token).get(`/api/v4/projects/${p.id}/audit_events/${pe.id}`).expect(404)).body,
    ).toEqual({ message: '404 Project Not Found' });
    // GraphQL: node(id) of the event's global id (the root groupAuditEvent is REST's, internal view only).
    const gql = await api(t, owner.token).graphql(
      `{ node(id: "gid://gitlab/AuditEvent/${ge.id}") { ... on AuditEvent { id: databaseId entityType } } }`,
    );
    expect(gql.body.data.node).toEqual({ id: String(ge.id), entityType: 'Group' });
  });
});

describe('node(id) of an audit event', () => {
  const NODE = (id: unknown) =>
    `{ node(id: "gid://gitlab/AuditEvent/${id}") { ... on AuditEvent { databaseId entityType entityId } } }`;

  async function world() {
    const owner = await createUser(t, { username: 'nowner' });
    const maintainer = await createUser(t, { username: 'nmaint' });
    const developer = await createUser(t, { username: 'ndev' });
    const stranger = await createUser(t, { username: 'nstranger' });
    const g = (await api(t, owner.token).post('/api/v4/groups').send({ name: 'Nodes', path: 'nodes' }).expect(201))
      .body;
    await addGroupMember(t, g, maintainer, 40);
    await addGroupMember(t, g, developer, 30);
    const p = (
      await api(t, owner.token)
        .post('/api/v4/projects')
        .send({ name: 'App', path: 'app', namespace_id: g.id })
        .expect(201)
    ).body;
    const [ge] = (await admin().get(`/api/v4/groups/${g.id}/audit_events`).expect(200)).body;
    const [pe] = (await admin().get(`/api/v4/projects/${p.id}/audit_events`).expect(200)).body;
    await admin().put('/api/v4/application/settings').send({ default_projects_limit: 9 }).expect(200);
    const [ie] = await events('?entity_type=Gitlab::Audit::InstanceScope');
    return { owner, maintainer, developer, stranger, g, p, ge, pe, ie };
  }

  it("answers whoever may read the event by the lists' rule (group Owners, project Maintainers, administrators), null for others", async () => {
    const w = await world();
    const read = async (token: string | undefined, id: unknown) => {
      const res = await api(t, token).graphql(NODE(id));
      expect(res.body.errors).toBeUndefined();
      return res.body.data.node;
    };
    const groupEvent = { databaseId: String(w.ge.id), entityType: 'Group', entityId: w.g.id };
    const projectEvent = { databaseId: String(w.pe.id), entityType: 'Project', entityId: w.p.id };
    const instanceEvent = { databaseId: String(w.ie.id), entityType: 'Gitlab::Audit::InstanceScope', entityId: 1 };
    // Each caller reads by node(id) what Group.auditEvents and Project.auditEvents list to them.
    const answers = async (token: string | undefined) => [
      await read(token, w.ge.id),
      await read(token, w.pe.id),
      await read(token, w.ie.id),
    ];
    expect(await answers(ROOT_TOKEN)).toEqual([groupEvent, projectEvent, instanceEvent]);
    expect(await answers(w.owner.token)).toEqual([groupEvent, projectEvent, null]);
    expect(await answers(w.maintainer.token)).toEqual([null, projectEvent, null]);
    expect(await answers(w.developer.token)).toEqual([null, null, null]);
    expect(await answers(w.stranger.token)).toEqual([null, null, null]);
    expect(await answers(undefined)).toEqual([null, null, null]);
    const lists = await api(t, w.maintainer.token).graphql(
      `{ group(fullPath: "nodes") { auditEvents { count } } project(fullPath: "nodes/app") { auditEvents { nodes { databaseId } } } }`,
    );
    expect(lists.body.data).toEqual({
      group: { auditEvents: null },
      project: { auditEvents: { nodes: [{ databaseId: String(w.pe.id) }] } },
    });
    // A project Maintainer through a project membership only (not the group's).
    const projectOnly = await createUser(t, { username: 'npm' });
    await api(t, w.owner.token)
      .post(`/api/v4/projects/${w.p.id}/members`)
      .send({ user_id: projectOnly.id, access_level: 40 })
      .expect(201);
    expect(await read(projectOnly.token, w.pe.id)).toEqual(projectEvent);
    expect(await read(projectOnly.token, w.ge.id)).toBeNull();
    // Once the group is gone, its events are the administrators' only.
    await api(t, w.owner.token).delete(`/api/v4/groups/${w.g.id}`).expect(204);
    expect(await read(w.owner.token, w.ge.id)).toBeNull();
    expect(await read(ROOT_TOKEN, w.ge.id)).toEqual(groupEvent);
  });

  it('nodes(ids) of many events costs the same statements as of one (the checks load in one batch per loader)', async () => {
    const w = await world();
    for (const description of ['a', 'b', 'c', 'd', 'e'])
      await api(t, w.owner.token).put(`/api/v4/groups/${w.g.id}`).send({ description }).expect(200);
    for (const description of ['a', 'b', 'c', 'd', 'e'])
      await api(t, w.owner.token).put(`/api/v4/projects/${w.p.id}`).send({ description }).expect(200);
    const all = (await events()).map((e) => `gid://gitlab/AuditEvent/${e.id}`);
    expect(all.length).toBeGreaterThanOrEqual(12);
    const q = 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on AuditEvent { entityType } } }';
    const nodesOf = (ids: string[]) => api(t, w.owner.token).graphql(q, { ids });
    const two = [`gid://gitlab/AuditEvent/${w.ge.id}`, `gid://gitlab/AuditEvent/${w.pe.id}`];
    await nodesOf(two); // warm per-process caches before counting
    const few = await t.countQueries(() => nodesOf(two));
    const many = await t.countQueries(() => nodesOf(all));
    expect(many.result.body.errors).toBeUndefined();
    const kinds = many.result.body.data.nodes.map((n: { entityType?: string } | null) => n?.entityType ?? null);
    // The owner reads every group and project event; the instance event is null.
    expect(kinds.filter((k: string | null) => k === null)).toHaveLength(1);
    expect(kinds.filter((k: string | null) => k !== null)).toHaveLength(all.length - 1);
    expect(many.count).toBe(few.count);
  });
});

describe('membership audit events', () => {
  it("records access given, changed and removed on the group or project, with GitLab's role names", async () => {
    const owner = await createUser(t, { username: 'mowner' });
    const bob = await createUser(t, { username: 'bob' });
    const g = (await api(t, owner.token).post('/api/v4/groups').send({ name: 'Team', path: 'team' }).expect(201)).body;
    await api(t, owner.token)
      .post(`/api/v4/groups/${g.id}/members`)
      .send({ user_id: bob.id, access_level: 30 })
      .expect(201);
    await api(t, owner.token).put(`/api/v4/groups/${g.id}/members/${bob.id}`).send({ access_level: 40 }).expect(200);
    await api(t, owner.token).delete(`/api/v4/groups/${g.id}/members/${bob.id}`).expect(204);
    await api(t, owner.token)
      .post(`/api/v4/groups/${g.id}/members`)
      .send({ user_id: bob.id, access_level: 99 })
      .expect(400);
    const list = (await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events`).expect(200)).body as {
      details: Record<string, string>;
    }[];
    expect(list.slice(0, 3).map((e) => e.details)).toEqual([
      expect.objectContaining({
        remove: 'user_access',
        target_type: 'User',
        target_id: String(bob.id),
        target_details: 'bob',
        entity_path: 'team',
      }),
      expect.objectContaining({ change: 'access_level', from: 'Developer', to: 'Master', target_details: 'bob' }),
      expect.objectContaining({ add: 'user_access', as: 'Developer', target_details: 'bob' }),
    ]);
    expect(list).toHaveLength(4); // and the group's creation
  });
});

describe('environment and pages domain audit events', () => {
  it('records environments added, renamed, stopped and removed, and pages domains added and removed, on the project', async () => {
    const owner = await createUser(t, { username: 'eowner' });
    const p = (await api(t, owner.token).post('/api/v4/projects').send({ name: 'site' }).expect(201)).body;
    const env = (
      await api(t, owner.token).post(`/api/v4/projects/${p.id}/environments`).send({ name: 'staging' }).expect(201)
    ).body;
    await api(t, owner.token)
      .put(`/api/v4/projects/${p.id}/environments/${env.id}`)
      .send({ name: 'stage' })
      .expect(200);
    await api(t, owner.token).post(`/api/v4/projects/${p.id}/environments/${env.id}/stop`).expect(200);
    await api(t, owner.token).delete(`/api/v4/projects/${p.id}/environments/${env.id}`).expect(204);
    await api(t, owner.token)
      .post(`/api/v4/projects/${p.id}/pages/domains`)
      .send({ domain: 'Docs.Acme.test' })
      .expect(201);
    await api(t, owner.token).delete(`/api/v4/projects/${p.id}/pages/domains/docs.acme.test`).expect(204);
    const list = (await api(t, owner.token).get(`/api/v4/projects/${p.id}/audit_events`).expect(200)).body as {
      details: Record<string, string>;
    }[];
    expect(
      list
        .slice(0, 6)
        .reverse()
        .map((e) => [
          e.details.target_type,
          e.details.add ?? e.details.remove ?? e.details.change,
          e.details.from,
          e.details.to,
          e.details.target_details,
        ]),
    ).toEqual([
      ['Environment', 'environment', undefined, undefined, 'staging'],
      ['Environment', 'name', 'staging', 'stage', 'stage'],
      ['Environment', 'state', 'available', 'stopped', 'stage'],
      ['Environment', 'environment', undefined, undefined, 'stage'],
      ['PagesDomain', 'pages_domain', undefined, undefined, 'docs.acme.test'],
      ['PagesDomain', 'pages_domain', undefined, undefined, 'docs.acme.test'],
    ]);
    expect(list[0].details).toMatchObject({ remove: 'pages_domain', entity_path: 'eowner/site' });
  });
});

describe('retention (AUDIT_EVENTS_RETENTION_DAYS)', () => {
  it('prunes events past the retention in batches at start, and keeps the recent ones', async () => {
    const conn = t.orm.em.getConnection();
    await conn.execute(`insert into audit_events (author_id, entity_id, entity_type, details, created_at)
      select 1, 1, 'Gitlab::Audit::InstanceScope', '{"custom_message":"old"}'::jsonb, now() - interval '40 days' from generate_series(1, 2500)`);
    await admin().put('/api/v4/application/settings').send({ default_projects_limit: 5 }).expect(200);
    const { stop } = await buildApp({
      orm: t.orm,
      logger: pino({ level: 'silent' }),
      externalUrl: 'http://gitlab.test',
      secrets: TEST_SECRETS,
      modules: MODULES,
      auditRetentionDays: 30,
    });
    try {
      await waitFor(
        'old events pruned',
        async () => Number((await conn.execute('select count(*) as n from audit_events'))[0].n) === 1,
        10_000,
      );
      expect((await events())[0].details.change).toBe('default_projects_limit');
    } finally {
      await stop();
    }
  });
});

describe('audit event ids', () => {
  it('are JSON numbers on every audit events route, as GitLab sends them; GraphQL keeps the global id and the database id string', async () => {
    const owner = await createUser(t, { username: 'idowner' });
    const g = (await api(t, owner.token).post('/api/v4/groups').send({ name: 'Ids', path: 'ids-g' }).expect(201)).body;
    const p = (await api(t, owner.token).post('/api/v4/projects').send({ name: 'Ids', path: 'ids-p' }).expect(201))
      .body;
    await admin().put('/api/v4/application/settings').send({ default_projects_limit: 9 }).expect(200);
    const [ge] = (await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events`).expect(200)).body;
    const [pe] = (await api(t, owner.token).get(`/api/v4/projects/${p.id}/audit_events`).expect(200)).body;
    const all = (await admin().get('/api/v4/audit_events').expect(200)).body as { id: unknown }[];
    const one = (await admin().get(`/api/v4/audit_events/${ge.id}`).expect(200)).body;
    const groupOne = (await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events/${ge.id}`).expect(200)).body;
    const projectOne = (await api(t, owner.token).get(`/api/v4/projects/${p.id}/audit_events/${pe.id}`).expect(200))
      .body;
    expect(all).toHaveLength(3);
    const byRoute: Record<string, { id: unknown }[]> = {
      'GET /audit_events': all,
      'GET /audit_events/:id': [one],
      'GET /groups/:id/audit_events': [ge],
      'GET /groups/:id/audit_events/:audit_event_id': [groupOne],
      'GET /projects/:id/audit_events': [pe],
      'GET /projects/:id/audit_events/:audit_event_id': [projectOne],
    };
    const idTypes = Object.fromEntries(
      Object.entries(byRoute).map(([route, list]) => [route, [...new Set(list.map((e) => typeof e.id))]]),
    );
    expect(idTypes).toEqual(Object.fromEntries(Object.keys(byRoute).map((route) => [route, ['number']])));
    const [row] = await t.orm.em.getConnection().execute(`select id from audit_events where entity_type = 'Group'`);
    expect(ge.id).toBe(Number(row.id));
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => Number(b) - Number(a)));
    // GraphQL: `id` is the global id, `databaseId` the same number as an ID (a string: ids are 64-bit).
    const gql = await admin().graphql(`{ auditEvent(id: ${ge.id}) { id databaseId } }`);
    expect(gql.body.data.auditEvent).toEqual({ id: `gid://gitlab/AuditEvent/${ge.id}`, databaseId: String(ge.id) });
  });

  it('beyond 32 bits (the column is a bigint): every single-event lookup finds the event; past 2^53 it is a 404 or a GraphQL validation error', async () => {
    await t.orm.em.getConnection().execute(`select setval('audit_events_id_seq', 3000000000)`);
    const owner = await createUser(t, { username: 'bigowner' });
    const g = (await api(t, owner.token).post('/api/v4/groups').send({ name: 'Big', path: 'big-g' }).expect(201)).body;
    const [ge] = (await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events`).expect(200)).body;
    expect(ge.id).toBe(3000000001);
    expect((await admin().get('/api/v4/audit_events/3000000001').expect(200)).body).toEqual(ge);
    expect((await api(t, owner.token).get(`/api/v4/groups/${g.id}/audit_events/3000000001`).expect(200)).body).toEqual(
      ge,
    );
    const gql = await admin()
      .graphql(`{ a: auditEvent(id: 3000000001) { databaseId } b: auditEvent(id: "gid://gitlab/AuditEvent/3000000001") { databaseId }
      c: node(id: "gid://gitlab/AuditEvent/3000000001") { ... on AuditEvent { databaseId } } }`);
    expect(gql.body).toEqual({
      data: {
        a: { databaseId: '3000000001' },
        b: { databaseId: '3000000001' },
        c: { databaseId: '3000000001' },
      },
    });
    // The group's Owner: node(id) (REST's groupAuditEvent root is internal).
    const mine = await api(t, owner.token).graphql(
      '{ node(id: "gid://gitlab/AuditEvent/3000000001") { ... on AuditEvent { databaseId } } }',
    );
    expect(mine.body).toEqual({ data: { node: { databaseId: '3000000001' } } });
    expect((await admin().get('/api/v4/audit_events/9007199254740992').expect(404)).body).toEqual({
      message: '404 Not found',
    });
    const past = await admin().graphql('{ auditEvent(id: 9007199254740992) { databaseId } }');
    expect(
      past.body.errors.map((e: { message: string; extensions: { code: string } }) => [e.extensions.code, e.message]),
    ).toEqual([
      ['GRAPHQL_VALIDATION_FAILED', 'AuditEvent id cannot represent 9007199254740992: not an integer below 2^53'],
    ]);
    expect((await admin().graphql('{ node(id: "gid://gitlab/AuditEvent/9007199254740992") { id } }')).body).toEqual({
      data: { node: null },
    });
    // Paging through events past int4 with their cursors (keyset on the id), forwards and back.
    await api(t, owner.token).put(`/api/v4/groups/${g.id}`).send({ description: 'second' }).expect(200);
    const first = await admin().graphql(
      '{ auditEvents(first: 1) { nodes { databaseId } pageInfo { endCursor hasNextPage } } }',
    );
    expect(first.body.data.auditEvents.nodes).toEqual([{ databaseId: '3000000002' }]);
    const next = await admin().graphql(
      `{ auditEvents(first: 1, after: "${first.body.data.auditEvents.pageInfo.endCursor}") { nodes { databaseId } pageInfo { startCursor } } }`,
    );
    expect(next.body.data.auditEvents.nodes).toEqual([{ databaseId: '3000000001' }]);
    const back = await admin().graphql(
      `{ auditEvents(last: 1, before: "${next.body.data.auditEvents.pageInfo.startCursor}") { nodes { databaseId } } }`,
    );
    expect(back.body.data.auditEvents.nodes).toEqual([{ databaseId: '3000000002' }]);
    // Other classes keep their 32-bit ids: a group id past int4 is still no group.
    expect((await admin().get('/api/v4/groups/3000000001').expect(404)).body).toEqual({
      message: '404 Group Not Found',
    });
  });
});
