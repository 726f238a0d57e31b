import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** PAGES_ENABLED=false: every pages route is 404 "404 Not Found", admins included, in GitLab's order of checks. */
const t = useTestApp({ env: { PAGES_ENABLED: 'false' } });
const NOT_FOUND = { message: '404 Not Found' };

describe('pages switched off (spec 4.24: "the pages feature must be enabled")', () => {
  it('instance list: 401 first, then 404 for users and admins (before the admin check and parameters)', async () => {
    const u = await createUser(t);
    expect((await api(t).get('/api/v4/pages/domains')).body).toEqual({ message: '401 Unauthorized' });
    expect((await api(t, u.token).get('/api/v4/pages/domains')).body).toEqual(NOT_FOUND);
    const admin = await api(t, ROOT_TOKEN).get('/api/v4/pages/domains?per_page=abc');
    expect([admin.status, admin.body]).toEqual([404, NOT_FOUND]);
  });

  it('project routes: project lookup (404 Project Not Found), then the switch, before parameters and permissions', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const dev = await createUser(t);
    await addProjectMember(t, p, dev, 30);
    const base = `/api/v4/projects/${p.id}/pages/domains`;
    expect((await api(t, ROOT_TOKEN).get('/api/v4/projects/424242/pages/domains')).body).toEqual({
      message: '404 Project Not Found',
    });
    for (const token of [ROOT_TOKEN, dev.token]) {
      expect((await api(t, token).get(base)).body).toEqual(NOT_FOUND);
      expect((await api(t, token).get(`${base}/x.test`)).body).toEqual(NOT_FOUND);
      expect((await api(t, token).post(base).send({})).body).toEqual(NOT_FOUND);
      expect((await api(t, token).put(`${base}/x.test`).send({})).body).toEqual(NOT_FOUND);
      expect((await api(t, token).delete(`${base}/x.test`)).body).toEqual(NOT_FOUND);
    }
    expect((await api(t).get(base)).body).toEqual({ message: '401 Unauthorized' });
  });

  it('GraphQL answers NOT_FOUND with the same message; a project has no domains list', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    for (const q of [
      '{ pagesDomains { count } }',
      `mutation { pagesDomainCreate(input: { projectId: "${p.id}", domain: "a.test" }) { pagesDomain { url } errors } }`,
    ]) {
      const res = await api(t, ROOT_TOKEN).graphql(q);
      expect(res.body.errors[0]).toMatchObject({ message: '404 Not Found', extensions: { code: 'NOT_FOUND' } });
    }
    expect((await api(t, ROOT_TOKEN).graphql(`{ project(id: "${p.id}") { pagesDomains { count } } }`)).body).toEqual({
      data: { project: { pagesDomains: null } },
    });
  });
});
