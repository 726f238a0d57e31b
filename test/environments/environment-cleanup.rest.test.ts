import {
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  queryOne,
  type TestProject,
} from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** Current GitLab's bulk environment routes: stop_stale and review_apps (docs/client-routes.md#environments). */
const t = useTestApp();
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const BASIC_KEYS = ['created_at', 'external_url', 'id', 'name', 'slug', 'updated_at'];
const NOTHING =
  'No environments found for scheduled deletion. Either your query did not match any environments (default parameters match environments that are 30 days or older), or you have insufficient permissions to delete matching environments.';

let seq = 0;
async function env(p: TestProject, name: string, state: string, created: Date, updated = created): Promise<number> {
  seq += 1;
  const row = await queryOne<{ id: number }>(
    t,
    `insert into environments (project_id, name, slug, state, created_at, updated_at) values (?, ?, ?, ?, ?, ?) returning id`,
    [p.id, name, `env-${seq}`, state, created, updated],
  );
  return row!.id;
}
const stateOf = async (id: number) =>
  (await queryOne<{ state: string }>(t, 'select state from environments where id = ?', [id]))?.state;
const environmentAudits = async (p: TestProject) =>
  (await queryOne<{ n: number }>(
    t,
    `select count(*)::int as n from audit_events where entity_type = 'Project' and entity_id = ? and details->>'target_type' = 'Environment'`,
    [p.id],
  ))!.n;

describe('POST /projects/:id/environments/stop_stale', () => {
  it('stops the available environments not updated since `before` (query string or body), with audit events', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const stale = await env(p, 'old', 'available', ago(60));
    const fresh = await env(p, 'recent', 'available', ago(60), ago(2));
    const stopped = await env(p, 'gone', 'stopped', ago(90));
    const before = ago(30).toISOString();
    const res = await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${p.id}/environments/stop_stale`)
      .query({ before })
      .expect(200);
    expect(res.body).toEqual({ message: 'Successfully scheduled stale environments to stop' });
    expect([await stateOf(stale), await stateOf(fresh), await stateOf(stopped)]).toEqual([
      'stopped',
      'available',
      'stopped',
    ]);
    expect(await environmentAudits(p)).toBe(1);
    // In the body too; nothing left to stop still answers 200.
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${p.id}/environments/stop_stale`)
      .send({ before: ago(1.5).toISOString().slice(0, 10) })
      .expect(400, { message: '400 Bad request - Invalid Date' });
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${p.id}/environments/stop_stale`)
      .send({ before: ago(8).toISOString() })
      .expect(200);
    expect(await stateOf(fresh)).toBe('available');
  });

  it("400 for a missing, malformed or out-of-range date; developers may, reporters 403; others' projects 404", async () => {
    const p = await createProject(t, {
      namespace: await createGroup(t, { visibility: 'private' }),
      visibility: 'private',
    });
    const dev = await createUser(t);
    const reporter = await createUser(t);
    const stranger = await createUser(t);
    await addProjectMember(t, p, dev, 30);
    await addProjectMember(t, p, reporter, 20);
    const url = `/api/v4/projects/${p.id}/environments/stop_stale`;
    await api(t, dev.token).post(url).expect(400, { error: 'before is missing' });
    await api(t, dev.token).post(url).query({ before: 'yesterday' }).expect(400, { error: 'before is invalid' });
    await api(t, dev.token)
      .post(url)
      .query({ before: ago(3).toISOString() })
      .expect(400, { message: '400 Bad request - Invalid Date' });
    await api(t, dev.token)
      .post(url)
      .query({ before: '2001-01-01T00:00:00Z' })
      .expect(400, { message: '400 Bad request - Invalid Date' });
    await api(t, dev.token)
      .post(url)
      .query({ before: ago(10).toISOString() })
      .expect(200);
    await api(t, reporter.token)
      .post(url)
      .query({ before: ago(10).toISOString() })
      .expect(403, { message: '403 Forbidden' });
    await api(t, stranger.token)
      .post(url)
      .query({ before: ago(10).toISOString() })
      .expect(404, { message: '404 Project Not Found' });
    await api(t)
      .post(url)
      .query({ before: ago(10).toISOString() })
      .expect(401);
  });
});

describe('DELETE /projects/:id/environments/review_apps', () => {
  it('a dry run (the default) lists the stopped review apps older than 30 days, oldest first, and deletes nothing', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const old2 = await env(p, 'review/two', 'stopped', ago(40));
    const old1 = await env(p, 'review/one', 'stopped', ago(50));
    await env(p, 'review/running', 'available', ago(60));
    await env(p, 'review/new', 'stopped', ago(5));
    await env(p, 'reviewer', 'stopped', ago(60));
    await env(p, 'staging/review', 'stopped', ago(60));
    const res = await api(t, ROOT_TOKEN).delete(`/api/v4/projects/${p.id}/environments/review_apps`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['scheduled_entries', 'unprocessable_entries']);
    expect(res.body.scheduled_entries.map((e: { id: number }) => e.id)).toEqual([old1, old2]);
    expect(Object.keys(res.body.scheduled_entries[0]).sort()).toEqual(BASIC_KEYS);
    expect(res.body.scheduled_entries[0]).toMatchObject({ name: 'review/one', external_url: null });
    expect(res.body.unprocessable_entries).toEqual([]);
    expect(await stateOf(old1)).toBe('stopped');
    expect(await environmentAudits(p)).toBe(0);
  });

  it('dry_run=false deletes them now (limit, before), with audit events', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const a = await env(p, 'review/a', 'stopped', ago(9));
    const b = await env(p, 'review/b', 'stopped', ago(8));
    const c = await env(p, 'review/c', 'stopped', ago(7));
    const res = await api(t, ROOT_TOKEN)
      .delete(`/api/v4/projects/${p.id}/environments/review_apps`)
      .send({ before: ago(6).toISOString(), limit: 2, dry_run: false })
      .expect(200);
    expect(res.body.scheduled_entries.map((e: { id: number }) => e.id)).toEqual([a, b]);
    expect([await stateOf(a), await stateOf(b), await stateOf(c)]).toEqual([undefined, undefined, 'stopped']);
    expect(await environmentAudits(p)).toBe(2);
    // Nothing matching: GitLab's 400 with its entries and message.
    const none = await api(t, ROOT_TOKEN)
      .delete(`/api/v4/projects/${p.id}/environments/review_apps`)
      .query({ dry_run: false })
      .expect(400);
    expect(none.body).toEqual({ message: { scheduled_entries: [], unprocessable_entries: [], message: NOTHING } });
    // GraphQL: the same rule (its message in the payload's errors), and the same entries on a match.
    const c2 = await env(p, 'review/d', 'stopped', ago(40));
    const gql = await api(t, ROOT_TOKEN)
      .post('/api/graphql')
      .send({
        query: `mutation { reviewAppsDelete(input: { projectId: "${p.id}" }) { reviewAppsDeletion { scheduledEntries { databaseId name state } } errors } }`,
      })
      .expect(200);
    expect(gql.body.data.reviewAppsDelete.reviewAppsDeletion.scheduledEntries).toEqual([
      { databaseId: c2, name: 'review/d', state: 'stopped' },
    ]);
    const empty = await api(t, ROOT_TOKEN)
      .post('/api/graphql')
      .send({
        query: `mutation { reviewAppsDelete(input: { projectId: "${p.id}", before: "2020-01-01T00:00:00Z" }) { reviewAppsDeletion { scheduledEntries { id } } errors } }`,
      })
      .expect(200);
    expect(empty.body).toEqual({ data: { reviewAppsDelete: { reviewAppsDeletion: null, errors: [NOTHING] } } });
  });

  it('400 bad limit or date; maintainers may, developers 403 with the reason, non-members 404', async () => {
    const p = await createProject(t, {
      namespace: await createGroup(t, { visibility: 'private' }),
      visibility: 'private',
    });
    await env(p, 'review/x', 'stopped', ago(40));
    const master = await createUser(t);
    const dev = await createUser(t);
    const stranger = await createUser(t);
    await addProjectMember(t, p, master, 40);
    await addProjectMember(t, p, dev, 30);
    const url = `/api/v4/projects/${p.id}/environments/review_apps`;
    await api(t, master.token)
      .delete(url)
      .query({ limit: 0 })
      .expect(400, { error: 'limit does not have a valid value' });
    await api(t, master.token)
      .delete(url)
      .query({ limit: 1001 })
      .expect(400, { error: 'limit does not have a valid value' });
    await api(t, master.token).delete(url).query({ before: 'soon' }).expect(400, { error: 'before is invalid' });
    await api(t, master.token).delete(url).expect(200);
    await api(t, dev.token)
      .delete(url)
      .expect(403, { message: '403 Forbidden - You do not have permission to destroy environments in this project' });
    await api(t, stranger.token).delete(url).expect(404, { message: '404 Project Not Found' });
    await api(t).delete(url).expect(401);
  });
});
