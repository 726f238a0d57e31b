import { createGroup, createProject, createUser, addProjectMember } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createJob, createRunner } from './runner-factories';

const t = useTestApp();

/** The fields GitLab's admin runner list reads per row (its list_item_shared fragment), batched across a list. */
const ROW = `shortSha ownerProject { fullPath nameWithNamespace webUrl } projectCount jobExecutionStatus
  userPermissions { readRunner updateRunner deleteRunner assignRunner } adminUrl editAdminUrl`;

describe('CiRunner list-row fields', () => {
  async function world() {
    const g = await createGroup(t, { path: 'ci' });
    const first = await createProject(t, { namespace: g, path: 'first' });
    const second = await createProject(t, { namespace: g, path: 'second' });
    const master = await createUser(t, { username: 'master' });
    await addProjectMember(t, first, master, 40);
    await addProjectMember(t, second, master, 40);
    const specific = await createRunner(t, { projects: [first, second] });
    const single = await createRunner(t, { projects: [second] });
    const shared = await createRunner(t, { shared: true });
    return { first, second, master, specific, single, shared };
  }

  it('answers each row as its REST counterparts and rules say: token prefix, first project, counts, running jobs, permissions', async () => {
    const w = await world();
    await createJob(t, { runner: w.specific, project: w.first, status: 'running' });
    await createJob(t, { runner: w.single, project: w.second, status: 'success' });
    const ids = [w.specific, w.single, w.shared].map((r) => `"gid://gitlab/Ci::Runner/${r.id}"`).join(', ');
    const res = await api(t, ROOT_TOKEN).graphql(`{ nodes(ids: [${ids}]) { ... on CiRunner { ${ROW} } } }`);
    expect(res.body.errors).toBeUndefined();
    const [specific, single, shared] = res.body.data.nodes;
    expect(specific).toMatchObject({
      shortSha: w.specific.token.slice(0, 8),
      ownerProject: {
        fullPath: 'ci/first',
        nameWithNamespace: expect.stringContaining(' / '),
        webUrl: expect.stringMatching(/\/ci\/first$/),
      },
      projectCount: 2,
      jobExecutionStatus: 'ACTIVE',
      userPermissions: { readRunner: true, updateRunner: true, deleteRunner: true, assignRunner: true },
    });
    expect(specific.adminUrl).toMatch(new RegExp(`/admin/runners/${w.specific.id}$`));
    expect(specific.editAdminUrl).toMatch(new RegExp(`/admin/runners/${w.specific.id}/edit$`));
    expect(single).toMatchObject({
      ownerProject: { fullPath: 'ci/second' },
      projectCount: 1,
      jobExecutionStatus: 'IDLE',
    });
    expect(shared).toMatchObject({ ownerProject: null, projectCount: 0, userPermissions: { assignRunner: false } });
    const rest = await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.specific.id}`).expect(200);
    expect(rest.body.projects).toHaveLength(specific.projectCount);
  });

  it("a project's Master: may change both owned runners, remove only the one in a single project; no admin URLs; nothing of shared runners", async () => {
    const w = await world();
    const q = (id: number) => `{ runner(id: ${id}) { ${ROW} } }`;
    const specific = (await api(t, w.master.token).graphql(q(w.specific.id))).body.data.runner;
    expect(specific.userPermissions).toEqual({
      readRunner: true,
      updateRunner: true,
      deleteRunner: false,
      assignRunner: true,
    });
    expect([specific.adminUrl, specific.editAdminUrl]).toEqual([null, null]);
    const single = (await api(t, w.master.token).graphql(q(w.single.id))).body.data.runner;
    expect(single.userPermissions.deleteRunner).toBe(true);
    // REST agrees: the runner in two projects cannot be removed by its owner, the other can.
    await api(t, w.master.token).delete(`/api/v4/runners/${w.specific.id}`).expect(403);
    await api(t, w.master.token).delete(`/api/v4/runners/${w.single.id}`).expect(204);
    const shared = (await api(t, w.master.token).graphql(q(w.shared.id))).body.data.runner;
    expect(shared.userPermissions).toEqual({
      readRunner: true,
      updateRunner: false,
      deleteRunner: false,
      assignRunner: false,
    });
    expect(shared.jobExecutionStatus).toBeNull();
  });

  it('filters the fleet by paused (GitLab), as REST by scope=paused', async () => {
    const w = await world();
    await api(t, ROOT_TOKEN).put(`/api/v4/runners/${w.single.id}`).send({ active: false }).expect(200);
    const ids = async (paused: boolean) =>
      (
        await api(t, ROOT_TOKEN).graphql(`{ runners(paused: ${paused}) { nodes { databaseId } } }`)
      ).body.data.runners.nodes.map((n: { databaseId: number }) => n.databaseId);
    expect(await ids(true)).toEqual([w.single.id]);
    expect(await ids(false)).toEqual([w.specific.id, w.shared.id]);
    const rest = await api(t, ROOT_TOKEN).get('/api/v4/runners/all?scope=paused').expect(200);
    expect(rest.body.map((r: { id: number }) => r.id)).toEqual(await ids(true));
  });

  it('is batched: the same statements for 2 and for 12 runners', async () => {
    const w = await world();
    const query = (ids: number[]) =>
      `{ nodes(ids: [${ids.map((id) => `"gid://gitlab/Ci::Runner/${id}"`).join(', ')}]) { ... on CiRunner { ${ROW} } } }`;
    const two = [w.specific.id, w.single.id];
    await api(t, ROOT_TOKEN).graphql(query(two));
    const small = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(query(two)));
    const more = [...two];
    for (let i = 0; i < 10; i += 1) more.push((await createRunner(t, { projects: [w.first] })).id);
    const large = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(query(more)));
    expect(large.result.body.data.nodes.filter(Boolean)).toHaveLength(12);
    expect(large.count).toBe(small.count);
  });
});
