import { createGroup, createProject, createUser, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** Custom attributes of users and projects, the same API as the groups' (GitLab's CustomAttributesEndpoints). */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

describe.each([
  ['users', 'User'],
  ['projects', 'Project'],
])('/%s/:id/custom_attributes', (resource, owner) => {
  async function target(): Promise<{ id: number; ref: string; other: { token: string } }> {
    const u = await createUser(t, { username: 'attr-owner' });
    if (resource === 'users') return { id: u.id, ref: String(u.id), other: u };
    const p = await createProject(t, { namespace: { id: u.namespaceId }, path: 'attr-p', visibility: 'public' });
    return { id: p.id, ref: encodeURIComponent('attr-owner/attr-p'), other: u };
  }

  it('is for administrators: 401 anonymous, 403 others', async () => {
    const { ref, other } = await target();
    for (const [method, path] of [
      ['get', ''],
      ['get', '/k'],
      ['put', '/k'],
      ['delete', '/k'],
    ] as const) {
      expect((await api(t)[method](`/api/v4/${resource}/${ref}/custom_attributes${path}`).expect(401)).body).toEqual({
        message: '401 Unauthorized',
      });
      expect(
        (await api(t, other.token)[method](`/api/v4/${resource}/${ref}/custom_attributes${path}`).expect(403)).body,
      ).toEqual({ message: '403 Forbidden' });
    }
  });

  it("sets (creates or replaces), lists by key, gets and deletes; GitLab's 400 and 404 bodies", async () => {
    const { id, ref } = await target();
    const base = `/api/v4/${resource}/${ref}/custom_attributes`;
    expect((await admin().get(base).expect(200)).body).toEqual([]);
    const set = await admin().put(`${base}/tier`).send({ value: 'gold' }).expect(200);
    expect([set.headers['content-type'], set.body]).toEqual(['application/json', { key: 'tier', value: 'gold' }]);
    await admin().put(`${base}/tier`).type('form').send('value=silver').expect(200);
    await admin().put(`${base}/region`).send({ value: 'eu' }).expect(200);
    expect((await admin().get(base).expect(200)).body).toEqual([
      { key: 'region', value: 'eu' },
      { key: 'tier', value: 'silver' },
    ]);
    expect((await admin().get(`${base}/tier`).expect(200)).body).toEqual({ key: 'tier', value: 'silver' });
    expect((await admin().put(`${base}/x`).expect(400)).body).toEqual({ error: 'value is missing' });
    expect(
      (
        await admin()
          .put(`${base}/x`)
          .send({ value: 'v'.repeat(256) })
          .expect(400)
      ).body,
    ).toEqual({ message: { value: ['is too long (maximum is 255 characters)'] } });
    await admin().delete(`${base}/tier`).expect(204);
    expect((await admin().get(`${base}/tier`).expect(404)).body).toEqual({ message: '404 Custom Attribute Not Found' });
    expect((await admin().delete(`${base}/tier`).expect(404)).body).toEqual({
      message: '404 Custom Attribute Not Found',
    });
    expect((await admin().get(`/api/v4/${resource}/424242/custom_attributes`).expect(404)).body).toEqual({
      message: `404 ${owner} Not Found`,
    });
    expect(
      (await admin().put(`/api/v4/${resource}/424242/custom_attributes/k`).send({ value: 'v' }).expect(404)).body,
    ).toEqual({ message: `404 ${owner} Not Found` });
    expect((await admin().get(`/api/v4/${resource}/99999999999/custom_attributes`).expect(404)).body).toEqual({
      message: `404 ${owner} Not Found`,
    });
    const rows = await queryOne<{ n: string }>(
      t,
      `select count(*) as n from ${owner.toLowerCase()}_custom_attributes where ${owner.toLowerCase()}_id = ?`,
      [id],
    );
    expect(rows?.n).toBe('1');
  });

  it('records audit events on its owner: added, changed, removed (a write with no change records nothing)', async () => {
    const { id, ref } = await target();
    await t.orm.em.getConnection().execute('delete from audit_events');
    const base = `/api/v4/${resource}/${ref}/custom_attributes`;
    await admin().put(`${base}/tier`).send({ value: 'gold' }).expect(200);
    await admin().put(`${base}/tier`).send({ value: 'gold' }).expect(200);
    await admin().put(`${base}/tier`).send({ value: 'silver' }).expect(200);
    await admin().delete(`${base}/tier`).expect(204);
    await admin().delete(`${base}/tier`).expect(404);
    const list = (await admin().get(`/api/v4/audit_events?entity_type=${owner}&entity_id=${id}`).expect(200)).body as {
      details: Record<string, string>;
    }[];
    const path = resource === 'users' ? 'attr-owner' : 'attr-owner/attr-p';
    expect(
      list
        .reverse()
        .map((e) => [
          e.details.add ?? e.details.remove ?? e.details.change,
          e.details.from,
          e.details.to,
          e.details.target_type,
          e.details.target_details,
          e.details.entity_path,
        ]),
    ).toEqual([
      ['custom_attribute', undefined, undefined, 'CustomAttribute', 'tier', path],
      ['tier', 'gold', 'silver', 'CustomAttribute', 'tier', path],
      ['custom_attribute', undefined, undefined, 'CustomAttribute', 'tier', path],
    ]);
  });

  it('has GraphQL twins with the same data', async () => {
    const { id } = await target();
    const lower = owner.toLowerCase();
    const idArg = resource === 'users' ? `userId: ${id}` : `projectId: "${id}"`;
    expect(
      (
        await admin().graphql(
          `mutation { ${lower}CustomAttributeSet(input: { ${idArg}, key: "env", value: "prod" }) { customAttribute { key value } errors } }`,
        )
      ).body.data,
    ).toEqual({ [`${lower}CustomAttributeSet`]: { customAttribute: { key: 'env', value: 'prod' }, errors: [] } });
    expect((await admin().get(`/api/v4/${resource}/${id}/custom_attributes/env`)).body).toEqual({
      key: 'env',
      value: 'prod',
    });
    // The owner's own field, as Group.customAttributes: administrators only, null for others. The root
    // lookups are REST's (internal view only).
    const field = `{ ${lower}(id: ${resource === 'users' ? id : `"${id}"`}) { customAttributes { key value } } }`;
    expect((await admin().graphql(field)).body.data[lower].customAttributes).toEqual([{ key: 'env', value: 'prod' }]);
    expect(
      (await admin().graphql(`{ ${lower}CustomAttributes(${idArg}) { key value } }`)).body.errors[0].extensions.code,
    ).toBe('GRAPHQL_VALIDATION_FAILED');
    const other = await createUser(t);
    expect((await api(t, other.token).graphql(field)).body.data[lower].customAttributes).toBeNull();
    expect(
      (await admin().graphql(`mutation { ${lower}CustomAttributeDelete(input: { ${idArg}, key: "env" }) { errors } }`))
        .body,
    ).toEqual({ data: { [`${lower}CustomAttributeDelete`]: { errors: [] } } });
    expect((await admin().graphql(field)).body.data[lower].customAttributes).toEqual([]);
    expect((await admin().get(`/api/v4/${resource}/${id}/custom_attributes/env`)).status).toBe(404);
  });
});

describe('custom_attributes[key]=value on GET /users and GET /projects', () => {
  it('filters for administrators (several keys combine) and is ignored for others', async () => {
    const a = await createUser(t, { username: 'ua' });
    const b = await createUser(t, { username: 'ub' });
    for (const [u, tier, region] of [
      [a, 'gold', 'eu'],
      [b, 'gold', 'us'],
    ] as const) {
      await admin().put(`/api/v4/users/${u.id}/custom_attributes/tier`).send({ value: tier }).expect(200);
      await admin().put(`/api/v4/users/${u.id}/custom_attributes/region`).send({ value: region }).expect(200);
    }
    const names = (body: { username: string }[]) => body.map((u) => u.username);
    expect(names((await admin().get('/api/v4/users?custom_attributes[tier]=gold')).body)).toEqual(['ua', 'ub']);
    expect(
      names((await admin().get('/api/v4/users?custom_attributes[tier]=gold&custom_attributes[region]=eu')).body),
    ).toEqual(['ua']);
    expect(names((await api(t, a.token).get('/api/v4/users?custom_attributes[region]=eu')).body)).toEqual([
      'root',
      'ua',
      'ub',
    ]);

    const pa = await createProject(t, { namespace: { id: a.namespaceId }, path: 'pa', visibility: 'public' });
    await createProject(t, { namespace: { id: b.namespaceId }, path: 'pb', visibility: 'public' });
    await admin().put(`/api/v4/projects/${pa.id}/custom_attributes/tier`).send({ value: 'gold' }).expect(200);
    const projects = (body: { path: string }[]) => body.map((p) => p.path).sort();
    expect(projects((await admin().get('/api/v4/projects?custom_attributes[tier]=gold')).body)).toEqual(['pa']);
    expect(projects((await api(t, a.token).get('/api/v4/projects?custom_attributes[tier]=gold')).body)).toEqual([
      'pa',
      'pb',
    ]);
    const gql = await admin().graphql(
      '{ users(customAttributes: [{ key: "region", value: "us" }]) { nodes { username } } projects(customAttributes: [{ key: "tier", value: "gold" }]) { nodes { path } } }',
    );
    expect(gql.body.data).toEqual({ users: { nodes: [{ username: 'ub' }] }, projects: { nodes: [{ path: 'pa' }] } });
  });

  it('goes with its owner: deleting a user or project deletes its attributes; group attributes keep working', async () => {
    const u = await createUser(t);
    const p = await createProject(t, { namespace: { id: u.namespaceId }, path: 'gone' });
    await admin().put(`/api/v4/users/${u.id}/custom_attributes/a`).send({ value: '1' }).expect(200);
    await admin().put(`/api/v4/projects/${p.id}/custom_attributes/a`).send({ value: '1' }).expect(200);
    await admin().delete(`/api/v4/users/${u.id}`).expect(204);
    const left = await queryOne<{ u: string; p: string }>(
      t,
      'select (select count(*) from user_custom_attributes) as u, (select count(*) from project_custom_attributes) as p',
    );
    expect(left).toEqual({ u: '0', p: '0' });
    const g = await createGroup(t, { path: 'still' });
    expect(
      (await admin().put(`/api/v4/groups/${g.id}/custom_attributes/a`).send({ value: '1' }).expect(200)).body,
    ).toEqual({ key: 'a', value: '1' });
    const [event] = (await admin().get(`/api/v4/audit_events?entity_type=Group&entity_id=${g.id}`).expect(200)).body;
    expect(event.details).toMatchObject({
      add: 'custom_attribute',
      target_type: 'CustomAttribute',
      target_details: 'a',
      entity_path: 'still',
    });
  });
});
