import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { liveHarness, type LiveStream } from '../support/live';
import { createRunner } from '../runners/runner-factories';
import { waitFor } from '../reliability/fault-support';

/**
 * Live updates for dashboards: featureFlagChanged, broadcastMessagesChanged, runnerChanged and groupChanged, fed by
 * the audit events' commit NOTIFY, each subscriber receiving what the module's queries would show it;
 * a change through one instance reaches a subscriber of another within 500 ms.
 */
const t = useTestApp();
const live = liveHarness();
afterEach(() => live.disposeClients());
afterAll(() => live.closeServers());

const FLAGS = 'subscription { featureFlagChanged { name deleted feature { id name state gates { key value } } } }';
const MESSAGES =
  'subscription { broadcastMessagesChanged { action id: databaseId broadcastMessage { id: databaseId message active } } }';
const RUNNERS =
  'subscription { runnerChanged { id: databaseId deleted runner { id: databaseId description active tagList } } }';

const GROUPS = 'subscription { groupChanged { action groupId databaseId group { id fullPath name visibility } } }';

const settle = () => new Promise((r) => setTimeout(r, 300));
const errorCodes = (s: LiveStream) => JSON.stringify(s.errors);

describe('Subscription.featureFlagChanged', () => {
  it('streams each flag set or deleted to administrators, the flag as `features` shows it', async () => {
    const url = await live.serve(t.attach, t.app);
    const s = await live.subscribe(live.connect(url, ROOT_TOKEN), FLAGS);
    await api(t, ROOT_TOKEN).post('/api/v4/features/beta_ui').send({ value: 'true' }).expect(201);
    await api(t, ROOT_TOKEN)
      .post('/api/v4/features/beta_ui')
      .send({ value: '25', key: 'percentage_of_actors' })
      .expect(201);
    await api(t, ROOT_TOKEN).delete('/api/v4/features/beta_ui').expect(204);
    await waitFor('three changes', () => s.events.length >= 3, 10000);
    await settle();
    expect(s.errors).toEqual([]);
    // Each change is delivered as the flag is once it committed; the deletion carries the name only.
    expect(s.events.at(-1)).toEqual({ featureFlagChanged: { name: 'beta_ui', deleted: true, feature: null } });
    expect(s.events).toHaveLength(3);
    const features = await api(t, ROOT_TOKEN).post('/api/v4/features/fast_diffs').send({ value: 'true' }).expect(201);
    await waitFor('the fourth change', () => s.events.length >= 4, 10000);
    expect(s.events[3]).toEqual({
      featureFlagChanged: {
        name: 'fast_diffs',
        deleted: false,
        feature: {
          id: 'gid://gitlab/Feature/fast_diffs',
          name: 'fast_diffs',
          state: 'ON',
          gates: [{ key: 'boolean', value: true }],
        },
      },
    });
    expect(features.body.state).toBe('on');
  });

  it('refuses other users (FORBIDDEN) and anonymous callers (UNAUTHENTICATED)', async () => {
    const url = await live.serve(t.attach, t.app);
    const alice = await createUser(t, { username: 'alice' });
    const hers = await live.subscribe(live.connect(url, alice.token), FLAGS);
    const anonymous = await live.subscribe(live.connect(url), FLAGS);
    await api(t, ROOT_TOKEN).post('/api/v4/features/beta_ui').send({ value: 'true' }).expect(201);
    await waitFor('refused', () => hers.errors.length > 0 && anonymous.errors.length > 0, 5000);
    expect(errorCodes(hers)).toContain('FORBIDDEN');
    expect(errorCodes(anonymous)).toContain('UNAUTHENTICATED');
    expect([...hers.events, ...anonymous.events]).toEqual([]);
  });
});

describe('Subscription.broadcastMessagesChanged', () => {
  it('streams messages created, updated and deleted to administrators; other users are refused', async () => {
    const url = await live.serve(t.attach, t.app);
    const s = await live.subscribe(live.connect(url, ROOT_TOKEN), MESSAGES);
    // The change's broadcastMessageId is the message's global id (as BroadcastMessage.id), also once it is deleted.
    const gids = await live.subscribe(
      live.connect(url, ROOT_TOKEN),
      'subscription { broadcastMessagesChanged { broadcastMessageId databaseId broadcastMessage { id } } }',
    );
    const alice = await createUser(t, { username: 'alice' });
    const hers = await live.subscribe(live.connect(url, alice.token), MESSAGES);
    const created = await api(t, ROOT_TOKEN)
      .post('/api/v4/broadcast_messages')
      .send({ message: 'Maintenance' })
      .expect(201);
    const id = created.body.id as number;
    // Each change is read as it is at delivery: the next write waits for it (a loaded machine may lag).
    await waitFor('the creation', () => s.events.length >= 1 && gids.events.length >= 1, 10000);
    await api(t, ROOT_TOKEN)
      .put(`/api/v4/broadcast_messages/${id}`)
      .send({ message: 'Maintenance tonight' })
      .expect(200);
    await waitFor('the update', () => s.events.length >= 2 && gids.events.length >= 2, 10000);
    await api(t, ROOT_TOKEN).delete(`/api/v4/broadcast_messages/${id}`).expect(204);
    await waitFor('three changes', () => s.events.length >= 3, 10000);
    await settle();
    expect(s.errors).toEqual([]);
    expect(s.events.map((e) => (e.broadcastMessagesChanged as { action: string }).action)).toEqual([
      'CREATED',
      'UPDATED',
      'DELETED',
    ]);
    expect(s.events[2]).toEqual({ broadcastMessagesChanged: { action: 'DELETED', id, broadcastMessage: null } });
    const gid = `gid://gitlab/BroadcastMessage/${id}`;
    await waitFor('three changes with global ids', () => gids.events.length >= 3, 10000);
    expect(gids.events).toEqual([
      { broadcastMessagesChanged: { broadcastMessageId: gid, databaseId: id, broadcastMessage: { id: gid } } },
      { broadcastMessagesChanged: { broadcastMessageId: gid, databaseId: id, broadcastMessage: { id: gid } } },
      { broadcastMessagesChanged: { broadcastMessageId: gid, databaseId: id, broadcastMessage: null } },
    ]);
    expect(errorCodes(hers)).toContain('FORBIDDEN');
    expect(hers.events).toEqual([]);
  });

  it("tells when a message becomes active and inactive as time passes (this instance's boundary timer)", async () => {
    const url = await live.serve(t.attach, t.app);
    const s = await live.subscribe(live.connect(url, ROOT_TOKEN), MESSAGES);
    const startsAt = new Date(Date.now() + 1500);
    const endsAt = new Date(startsAt.getTime() + 1000);
    const created = await api(t, ROOT_TOKEN)
      .post('/api/v4/broadcast_messages')
      .send({ message: 'Soon', starts_at: startsAt.toISOString(), ends_at: endsAt.toISOString() })
      .expect(201);
    const id = created.body.id as number;
    await waitFor('activated and deactivated', () => s.events.length >= 3, 10000);
    await settle();
    expect(s.errors).toEqual([]);
    expect(s.events).toEqual([
      { broadcastMessagesChanged: { action: 'CREATED', id, broadcastMessage: { id, message: 'Soon', active: false } } },
      {
        broadcastMessagesChanged: { action: 'ACTIVATED', id, broadcastMessage: { id, message: 'Soon', active: true } },
      },
      {
        broadcastMessagesChanged: {
          action: 'DEACTIVATED',
          id,
          broadcastMessage: { id, message: 'Soon', active: false },
        },
      },
    ]);
    // Delivered at the boundary, not before it (the window includes both ends: inactive after ends_at).
    expect(s.at[1]).toBeGreaterThanOrEqual(startsAt.getTime());
    expect(s.at[1] - startsAt.getTime()).toBeLessThan(500);
    expect(s.at[2]).toBeGreaterThan(endsAt.getTime());
    expect(s.at[2] - endsAt.getTime()).toBeLessThan(500);
  });

  it('plans again when a message is moved, and says nothing for an inverted window', async () => {
    const url = await live.serve(t.attach, t.app);
    const later = new Date(Date.now() + 60 * 60 * 1000);
    const m = await api(t, ROOT_TOKEN)
      .post('/api/v4/broadcast_messages')
      .send({
        message: 'Later',
        starts_at: later.toISOString(),
        ends_at: new Date(later.getTime() + 1000).toISOString(),
      })
      .expect(201);
    const s = await live.subscribe(live.connect(url, ROOT_TOKEN), MESSAGES);
    const soon = new Date(Date.now() + 800);
    await api(t, ROOT_TOKEN)
      .put(`/api/v4/broadcast_messages/${m.body.id}`)
      .send({ starts_at: soon.toISOString() })
      .expect(200);
    const inverted = new Date(Date.now() + 600);
    await api(t, ROOT_TOKEN)
      .post('/api/v4/broadcast_messages')
      .send({
        message: 'Never',
        starts_at: inverted.toISOString(),
        ends_at: new Date(inverted.getTime() - 60_000).toISOString(),
      })
      .expect(201);
    await waitFor('activated', () => s.events.length >= 3, 10000);
    await new Promise((r) => setTimeout(r, 800));
    expect(
      s.events
        .map((e) => e.broadcastMessagesChanged as { action: string; broadcastMessage: { message: string } })
        .map((c) => `${c.action} ${c.broadcastMessage.message}`),
    ).toEqual(['UPDATED Later', 'CREATED Never', 'ACTIVATED Later']);
  });
});

describe('Subscription.runnerChanged', () => {
  async function fleet() {
    const alice = await createUser(t, { username: 'alice' });
    const g = await createGroup(t, { path: 'ci' });
    const project = await createProject(t, { namespace: g });
    await addProjectMember(t, project, alice, 40);
    const hers = await createRunner(t, { description: 'hers', projects: [project] });
    const other = await createRunner(t, { description: 'other', projects: [await createProject(t, { namespace: g })] });
    const shared = await createRunner(t, { description: 'shared', shared: true });
    return { alice, hers, other, shared };
  }

  it('streams runner changes and removals to administrators, optionally for one runner', async () => {
    const url = await live.serve(t.attach, t.app);
    const { hers, other } = await fleet();
    const all = await live.subscribe(live.connect(url, ROOT_TOKEN), RUNNERS);
    const one = await live.subscribe(
      live.connect(url, ROOT_TOKEN),
      `subscription { runnerChanged(id: "gid://gitlab/Ci::Runner/${other.id}") { runnerId databaseId runner { id active } } }`,
    );
    const removed = await live.subscribe(
      live.connect(url, ROOT_TOKEN),
      `subscription { runnerChanged(id: ${hers.id}) { runnerId databaseId deleted } }`,
    );
    await api(t, ROOT_TOKEN)
      .put(`/api/v4/runners/${hers.id}`)
      .send({ active: false, tag_list: 'docker,linux' })
      .expect(200);
    await api(t, ROOT_TOKEN).put(`/api/v4/runners/${other.id}`).send({ active: false }).expect(200);
    await api(t, ROOT_TOKEN).delete(`/api/v4/runners/${hers.id}`).expect(204);
    await waitFor('three changes', () => all.events.length >= 3, 10000);
    await settle();
    expect(all.errors).toEqual([]);
    expect(all.events).toEqual([
      {
        runnerChanged: {
          id: hers.id,
          deleted: false,
          runner: { id: hers.id, description: 'hers', active: false, tagList: ['docker', 'linux'] },
        },
      },
      {
        runnerChanged: {
          id: other.id,
          deleted: false,
          runner: { id: other.id, description: 'other', active: false, tagList: [] },
        },
      },
      { runnerChanged: { id: hers.id, deleted: true, runner: null } },
    ]);
    // The change's id is the runner's global id (as Runner.id), also once it is removed.
    expect(one.events).toEqual([
      {
        runnerChanged: {
          runnerId: `gid://gitlab/Ci::Runner/${other.id}`,
          databaseId: other.id,
          runner: { id: `gid://gitlab/Ci::Runner/${other.id}`, active: false },
        },
      },
    ]);
    await waitFor('both changes of hers', () => removed.events.length >= 2, 10000);
    expect(removed.events[1]).toEqual({
      runnerChanged: { runnerId: `gid://gitlab/Ci::Runner/${hers.id}`, databaseId: hers.id, deleted: true },
    });
  });

  it('resolves nested fields afresh for each event (no dataloader result kept from an earlier event)', async () => {
    const url = await live.serve(t.attach, t.app);
    const g = await createGroup(t, { path: 'ci' });
    const [p1, p2] = [await createProject(t, { namespace: g }), await createProject(t, { namespace: g })];
    const r = await createRunner(t, { description: 'r', projects: [p1] });
    const s = await live.subscribe(
      live.connect(url, ROOT_TOKEN),
      'subscription { runnerChanged { runner { description projects(sort: "id_asc") { nodes { id: databaseId } } } } }',
    );
    await api(t, ROOT_TOKEN).put(`/api/v4/runners/${r.id}`).send({ description: 'one' }).expect(200);
    await waitFor('the first change', () => s.events.length >= 1, 10000);
    await api(t, ROOT_TOKEN).post(`/api/v4/projects/${p2.id}/runners`).send({ runner_id: r.id }).expect(201);
    await api(t, ROOT_TOKEN).put(`/api/v4/runners/${r.id}`).send({ description: 'two' }).expect(200);
    await waitFor('the second change', () => s.events.length >= 2, 10000);
    expect(s.events).toEqual([
      { runnerChanged: { runner: { description: 'one', projects: { nodes: [{ id: p1.id }] } } } },
      { runnerChanged: { runner: { description: 'two', projects: { nodes: [{ id: p1.id }, { id: p2.id }] } } } },
    ]);
  });

  it('gives other users only the runners they may read (owned specific runners, shared runners), removals included', async () => {
    const url = await live.serve(t.attach, t.app);
    const { alice, hers, other, shared } = await fleet();
    const s = await live.subscribe(live.connect(url, alice.token), RUNNERS);
    const anonymous = await live.subscribe(live.connect(url), RUNNERS);
    await api(t, ROOT_TOKEN).put(`/api/v4/runners/${other.id}`).send({ description: 'not hers' }).expect(200);
    await api(t, ROOT_TOKEN).put(`/api/v4/runners/${hers.id}`).send({ description: 'still hers' }).expect(200);
    await api(t, ROOT_TOKEN).put(`/api/v4/runners/${shared.id}`).send({ active: false }).expect(200);
    await api(t, ROOT_TOKEN).delete(`/api/v4/runners/${other.id}`).expect(204);
    await api(t, ROOT_TOKEN).delete(`/api/v4/runners/${shared.id}`).expect(204);
    await api(t, ROOT_TOKEN).delete(`/api/v4/runners/${hers.id}`).expect(204);
    await waitFor('her changes', () => s.events.length >= 4, 10000);
    await settle();
    expect(s.errors).toEqual([]);
    expect(
      s.events
        .map((e) => e.runnerChanged as { id: number; deleted: boolean })
        .map((c) => `${c.id} ${c.deleted ? 'removed' : 'changed'}`),
    ).toEqual([`${hers.id} changed`, `${shared.id} changed`, `${shared.id} removed`, `${hers.id} removed`]);
    expect(errorCodes(anonymous)).toContain('UNAUTHENTICATED');
  });
});

describe('Subscription.groupChanged', () => {
  type Change = { action: string; databaseId: number; group: { fullPath: string; name: string } | null };
  const changes = (s: LiveStream) => s.events.map((e) => e.groupChanged as Change);
  const summary = (s: LiveStream) =>
    changes(s).map((c) => `${c.action} ${c.databaseId} ${c.group ? c.group.fullPath : '-'}`);

  it('streams groups created, updated and deleted through REST and GraphQL to administrators', async () => {
    const url = await live.serve(t.attach, t.app);
    const s = await live.subscribe(live.connect(url, ROOT_TOKEN), GROUPS);
    const root = api(t, ROOT_TOKEN);
    const created = await root.post('/api/v4/groups').send({ name: 'Live', path: 'live' }).expect(201);
    const id = created.body.id as number;
    // Each change is read as it is at delivery: the next write waits for it (a loaded machine may lag).
    const delivered = (n: number) => waitFor(`change ${n}`, () => s.events.length >= n, 10000);
    await delivered(1);
    await root.put(`/api/v4/groups/${id}`).send({ name: 'Live 2' }).expect(200);
    await delivered(2);
    const renamed = await root.graphql(
      'mutation($id: ID!) { groupUpdate(input: { id: $id, path: "live-2" }) { errors } }',
      { id: `gid://gitlab/Group/${id}` },
    );
    expect(renamed.body.errors).toBeUndefined();
    await delivered(3);
    await root.delete(`/api/v4/groups/${id}`).expect((r) => expect([202, 204]).toContain(r.status));
    await waitFor('four changes', () => s.events.length >= 4, 10000);
    await settle();
    expect(s.errors).toEqual([]);
    const gid = `gid://gitlab/Group/${id}`;
    expect(s.events).toEqual([
      {
        groupChanged: {
          action: 'CREATED',
          groupId: gid,
          databaseId: id,
          group: { id: gid, fullPath: 'live', name: 'Live', visibility: 'PRIVATE' },
        },
      },
      {
        groupChanged: {
          action: 'UPDATED',
          groupId: gid,
          databaseId: id,
          group: { id: gid, fullPath: 'live', name: 'Live 2', visibility: 'PRIVATE' },
        },
      },
      {
        groupChanged: {
          action: 'UPDATED',
          groupId: gid,
          databaseId: id,
          group: { id: gid, fullPath: 'live-2', name: 'Live 2', visibility: 'PRIVATE' },
        },
      },
      // Deleted: the ids only.
      { groupChanged: { action: 'DELETED', groupId: gid, databaseId: id, group: null } },
    ]);
  });

  it("gives other users only groups they may see: a non-member gets no private group's event", async () => {
    const url = await live.serve(t.attach, t.app);
    const alice = await createUser(t, { username: 'alice' }); // a member of none
    const bob = await createUser(t, { username: 'bob' });
    const secret = await createGroup(t, { path: 'secret', visibility: 'private' });
    await addGroupMember(t, secret, bob, 30);
    const hers = await live.subscribe(live.connect(url, alice.token), GROUPS);
    const his = await live.subscribe(live.connect(url, bob.token), GROUPS);
    const anonymous = await live.subscribe(live.connect(url), GROUPS);
    const root = api(t, ROOT_TOKEN);
    // Each change is read as it is at delivery: the next write waits for the events it gives (a loaded machine may lag).
    const delivered = (hersN: number, hisN: number) =>
      waitFor(`${hersN} and ${hisN} events`, () => hers.events.length >= hersN && his.events.length >= hisN, 10000);
    await root.put(`/api/v4/groups/${secret.id}`).send({ description: 'members only' }).expect(200);
    await delivered(0, 1);
    const hidden = await root.post('/api/v4/groups').send({ name: 'Hidden', path: 'hidden' }).expect(201);
    const open = await root
      .post('/api/v4/groups')
      .send({ name: 'Open', path: 'open', visibility: 'public' })
      .expect(201);
    await delivered(1, 2);
    // Public, then private: those who saw it by its level are told it is gone for them, without data.
    await root.put(`/api/v4/groups/${open.body.id}`).send({ visibility: 'private' }).expect(200);
    await delivered(2, 3);
    await root.delete(`/api/v4/groups/${hidden.body.id}`).expect((r) => expect([202, 204]).toContain(r.status));
    await root.delete(`/api/v4/groups/${secret.id}`).expect((r) => expect([202, 204]).toContain(r.status));
    await delivered(2, 4);
    // The last event reaches everyone who may see it: after it, nothing else is on its way.
    const last = await root
      .post('/api/v4/groups')
      .send({ name: 'Last', path: 'last', visibility: 'public' })
      .expect(201);
    await waitFor('the last group', () => hers.events.length >= 3 && his.events.length >= 5, 10000);
    await settle();
    expect([hers.errors, his.errors]).toEqual([[], []]);
    expect(summary(hers)).toEqual([
      `CREATED ${open.body.id} open`,
      `DELETED ${open.body.id} -`,
      `CREATED ${last.body.id} last`,
    ]);
    // The member sees the private group changed and deleted (the deletion without data).
    expect(summary(his)).toEqual([
      `UPDATED ${secret.id} secret`,
      `CREATED ${open.body.id} open`,
      `DELETED ${open.body.id} -`,
      `DELETED ${secret.id} -`,
      `CREATED ${last.body.id} last`,
    ]);
    expect(JSON.stringify(hers.events)).not.toContain('secret');
    expect(JSON.stringify(hers.events)).not.toContain('hidden');
    expect(errorCodes(anonymous)).toContain('UNAUTHENTICATED');
  });

  it('narrows to one group with id (a global or database id)', async () => {
    const url = await live.serve(t.attach, t.app);
    const a = await createGroup(t, { path: 'a', visibility: 'public' });
    const b = await createGroup(t, { path: 'b', visibility: 'public' });
    const s = await live.subscribe(
      live.connect(url, ROOT_TOKEN),
      `subscription { groupChanged(id: "gid://gitlab/Group/${b.id}") { action group { fullPath description } } }`,
    );
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${a.id}`).send({ description: 'not this one' }).expect(200);
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${b.id}`).send({ description: 'this one' }).expect(200);
    await waitFor('the change of b', () => s.events.length >= 1, 10000);
    await settle();
    expect(s.events).toEqual([
      { groupChanged: { action: 'UPDATED', group: { fullPath: 'b', description: 'this one' } } },
    ]);
  });
});

describe('across instances', () => {
  it('a change through one instance reaches a subscriber on the other within 500 ms', async () => {
    const second = await t.secondInstance();
    const url = await live.serve(second.attach, second.app);
    const client = live.connect(url, ROOT_TOKEN);
    const runner = await createRunner(t, { description: 'fleet-1' });
    const flags = await live.subscribe(client, FLAGS);
    const messages = await live.subscribe(client, MESSAGES);
    const runners = await live.subscribe(client, RUNNERS);
    const groups = await live.subscribe(client, GROUPS);
    const latencies: Record<string, number> = {};
    const measure = async (name: string, s: LiveStream, change: () => Promise<unknown>) => {
      const sent = Date.now();
      await change();
      await waitFor(`${name} on the second instance`, () => s.events.length >= 1, 5000);
      latencies[name] = s.at[0] - sent;
    };
    await measure('featureFlagChanged', flags, () =>
      api(t, ROOT_TOKEN).post('/api/v4/features/beta_ui').send({ value: 'true' }).expect(201),
    );
    await measure('broadcastMessagesChanged', messages, () =>
      api(t, ROOT_TOKEN).post('/api/v4/broadcast_messages').send({ message: 'From the first' }).expect(201),
    );
    await measure('runnerChanged', runners, () =>
      api(t, ROOT_TOKEN).put(`/api/v4/runners/${runner.id}`).send({ active: false }).expect(200),
    );
    await measure('groupChanged', groups, () =>
      api(t, ROOT_TOKEN).post('/api/v4/groups').send({ name: 'Far', path: 'far' }).expect(201),
    );
    // From sending the REST request to the first instance until the second instance's subscriber has the event.
    console.log(`cross-instance latency (ms): ${JSON.stringify(latencies)}`);
    for (const ms of Object.values(latencies)) expect(ms).toBeLessThan(500);
    expect((messages.events[0].broadcastMessagesChanged as { action: string }).action).toBe('CREATED');
    expect((runners.events[0].runnerChanged as { runner: { active: boolean } }).runner.active).toBe(false);
    expect((groups.events[0].groupChanged as { action: string }).action).toBe('CREATED');
    await second.close();
  });
});
