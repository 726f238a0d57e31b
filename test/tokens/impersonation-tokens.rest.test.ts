import { createUser, queryOne } from '../support/factories';
import { TOKEN_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

describe('/users/:user_id/impersonation_tokens', () => {
  it('creates a token shown once, stores only its SHA-256 digest, and the token works', async () => {
    const u = await createUser(t);
    const res = await api(t, ROOT_TOKEN)
      .post(`/api/v4/users/${u.id}/impersonation_tokens`)
      .type('form')
      .send('name=ci&scopes[]=api&scopes[]=read_user&expires_at=2099-01-01');
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual([...TOKEN_KEYS, 'token'].sort());
    expect(res.body).toMatchObject({
      name: 'ci',
      scopes: ['api', 'read_user'],
      user_id: u.id,
      impersonation: true,
      active: true,
      revoked: false,
      expires_at: '2099-01-01',
    });
    const stored = await queryOne<{ token_digest: string }>(
      t,
      'select token_digest from personal_access_tokens where id = ?',
      [res.body.id],
    );
    expect(stored?.token_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.token_digest).not.toContain(res.body.token);
    expect((await api(t, res.body.token).get('/api/v4/user')).body.id).toBe(u.id);
    const list = await api(t, ROOT_TOKEN).get(`/api/v4/users/${u.id}/impersonation_tokens`);
    expect(list.headers['x-total']).toBe('1');
    expect(keys(list.body[0])).toEqual(TOKEN_KEYS);
    expect(
      (await api(t, ROOT_TOKEN).get(`/api/v4/users/${u.id}/impersonation_tokens/${res.body.id}`)).body,
    ).not.toHaveProperty('token');
  });

  it('revokes with 204 and the token stops working at once; state filter sees it as inactive', async () => {
    const u = await createUser(t);
    const created = await api(t, ROOT_TOKEN)
      .post(`/api/v4/users/${u.id}/impersonation_tokens`)
      .send({ name: 'x', scopes: ['api'] });
    const del = await api(t, ROOT_TOKEN).delete(`/api/v4/users/${u.id}/impersonation_tokens/${created.body.id}`);
    expect(del.status).toBe(204);
    expect((await api(t, created.body.token).get('/api/v4/user')).body).toEqual({ message: '401 Unauthorized' });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/users/${u.id}/impersonation_tokens?state=active`)).body).toEqual([]);
    expect(
      (await api(t, ROOT_TOKEN).get(`/api/v4/users/${u.id}/impersonation_tokens?state=inactive`)).body,
    ).toHaveLength(1);
    expect((await api(t, ROOT_TOKEN).delete(`/api/v4/users/${u.id}/impersonation_tokens/4242`)).body).toEqual({
      message: '404 Impersonation Token Not Found',
    });
  });

  it('is admin-only and validates its parameters', async () => {
    const u = await createUser(t);
    expect(
      (
        await api(t, u.token)
          .post(`/api/v4/users/${u.id}/impersonation_tokens`)
          .send({ name: 'x', scopes: ['api'] })
      ).status,
    ).toBe(403);
    expect((await api(t).get(`/api/v4/users/${u.id}/impersonation_tokens`)).status).toBe(401);
    expect((await api(t, ROOT_TOKEN).post(`/api/v4/users/${u.id}/impersonation_tokens`).send({})).body).toEqual({
      error: 'name is missing, scopes is missing',
    });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .post(`/api/v4/users/${u.id}/impersonation_tokens`)
          .send({ name: 'x', scopes: ['root'] })
      ).body,
    ).toEqual({ error: 'scopes does not have a valid value' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .post(`/api/v4/users/${u.id}/impersonation_tokens`)
          .send({ name: 'x', scopes: ['api'], expires_at: 'soon' })
      ).body,
    ).toEqual({ error: 'expires_at is invalid' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .post('/api/v4/users/4242/impersonation_tokens')
          .send({ name: 'x', scopes: ['api'] })
      ).body,
    ).toEqual({ message: '404 User Not Found' });
  });
});
