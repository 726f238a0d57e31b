import { createGroup, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GET /namespaces/:namespace/exists (later GitLab; docs/client-routes.md). */
const t = useTestApp();

describe('GET /namespaces/:namespace/exists', () => {
  it('says whether a path is taken at the top level or under a parent, with the first free numbered path', async () => {
    const u = await createUser(t, { username: 'nsuser' });
    const caller = () => api(t, u.token);
    const top = await createGroup(t, { path: 'my-group', visibility: 'private' });
    await createGroup(t, { path: 'my-group1' });
    await createGroup(t, { path: 'child', parent: top });

    await api(t).get('/api/v4/namespaces/my-group/exists').expect(401);
    expect((await caller().get('/api/v4/namespaces/my-group/exists').expect(200)).body).toEqual({
      exists: true,
      suggests: ['my-group2'],
    });
    // Case-insensitive, as paths are unique; users' namespaces are top-level namespaces too.
    expect((await caller().get('/api/v4/namespaces/MY-GROUP/exists').expect(200)).body.exists).toBe(true);
    expect((await caller().get('/api/v4/namespaces/nsuser/exists').expect(200)).body).toEqual({
      exists: true,
      suggests: ['nsuser1'],
    });
    expect((await caller().get('/api/v4/namespaces/free-path/exists').expect(200)).body).toEqual({
      exists: false,
      suggests: [],
    });
    // Under a parent only its children count; the child is not a top-level namespace.
    expect((await caller().get(`/api/v4/namespaces/child/exists?parent_id=${top.id}`).expect(200)).body).toEqual({
      exists: true,
      suggests: ['child1'],
    });
    expect((await caller().get('/api/v4/namespaces/child/exists').expect(200)).body.exists).toBe(false);
    expect((await caller().get('/api/v4/namespaces/child/exists?parent_id=4242').expect(200)).body.exists).toBe(false);
    expect((await caller().get('/api/v4/namespaces/child/exists?parent_id=x').expect(400)).body).toEqual({
      error: 'parent_id is invalid',
    });
    // Only this path: LIKE wildcards are plain characters.
    expect((await caller().get('/api/v4/namespaces/my%25/exists').expect(200)).body.exists).toBe(false);
    expect(
      (
        await api(t, ROOT_TOKEN)
          .post('/api/graphql')
          .send({ query: '{ namespaceExists(path: "my-group") { exists suggests } }' })
          .expect(200)
      ).body,
    ).toEqual({
      data: { namespaceExists: { exists: true, suggests: ['my-group2'] } },
    });
  });
});
