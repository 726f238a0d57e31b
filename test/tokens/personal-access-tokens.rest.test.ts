import { createUser } from '../support/factories';
import { keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { forgetTokenUseWrites, tokenUseWritesSettled } from '../../src/modules/tokens';

/** Later GitLab's personal access tokens API (docs/rest.md#personal-access-tokens). */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
// The database is reset between tests and token ids come again: forget which ones this process wrote.
beforeEach(() => forgetTokenUseWrites());
const PAT_KEYS = ['active', 'created_at', 'expires_at', 'id', 'last_used_at', 'name', 'revoked', 'scopes', 'user_id'];
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function patFor(userId: number, body: Record<string, unknown> = { name: 'ci', scopes: ['api'] }) {
  return (await admin().post(`/api/v4/users/${userId}/personal_access_tokens`).send(body).expect(201)).body;
}

describe('personal access tokens', () => {
  it('an administrator creates one for a user: shown once, it authenticates; parameter errors as GitLab', async () => {
    const u = await createUser(t);
    const pat = await patFor(u.id, { name: 'deploy', scopes: ['read_user', 'api'], expires_at: inDays(30) });
    expect(keys(pat)).toEqual([...PAT_KEYS, 'token'].sort());
    expect(pat).toMatchObject({
      name: 'deploy',
      scopes: ['read_user', 'api'],
      user_id: u.id,
      active: true,
      revoked: false,
    });
    expect((await api(t, pat.token).get('/api/v4/user').expect(200)).body.id).toBe(u.id);
    expect((await admin().get(`/api/v4/personal_access_tokens/${pat.id}`).expect(200)).body.token).toBeUndefined();

    await api(t, u.token)
      .post(`/api/v4/users/${u.id}/personal_access_tokens`)
      .send({ name: 'x', scopes: ['api'] })
      .expect(403);
    expect(
      (await admin().post(`/api/v4/users/${u.id}/personal_access_tokens`).send({ name: 'x' }).expect(400)).body,
    ).toEqual({
      error: 'scopes is missing',
    });
    expect(
      (
        await admin()
          .post(`/api/v4/users/${u.id}/personal_access_tokens`)
          .send({ name: 'x', scopes: ['root'] })
          .expect(400)
      ).body,
    ).toEqual({ error: 'scopes does not have a valid value' });
    expect(
      (
        await admin()
          .post('/api/v4/users/4242/personal_access_tokens')
          .send({ name: 'x', scopes: ['api'] })
          .expect(404)
      ).body,
    ).toEqual({ message: '404 User Not Found' });
  });

  it('lists: administrators every token (user_id filters), users their own; filters by state, revoked and search', async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    const a1 = await patFor(a.id, { name: 'alpha-one', scopes: ['api'] });
    const a2 = await patFor(a.id, { name: 'alpha-two', scopes: ['api'] });
    await patFor(b.id, { name: 'beta', scopes: ['api'] });
    await admin().delete(`/api/v4/personal_access_tokens/${a2.id}`).expect(204);

    const names = (body: { name: string }[]) => body.map((x) => x.name);
    const mine = await api(t, a.token).get('/api/v4/personal_access_tokens').expect(200);
    expect(names(mine.body)).toEqual(['test', 'alpha-one', 'alpha-two']);
    expect(keys(mine.body[0])).toEqual(PAT_KEYS);
    expect(names((await api(t, a.token).get('/api/v4/personal_access_tokens?state=active').expect(200)).body)).toEqual([
      'test',
      'alpha-one',
    ]);
    expect(names((await api(t, a.token).get('/api/v4/personal_access_tokens?revoked=true').expect(200)).body)).toEqual([
      'alpha-two',
    ]);
    expect(names((await api(t, a.token).get('/api/v4/personal_access_tokens?search=ONE').expect(200)).body)).toEqual([
      'alpha-one',
    ]);
    expect((await api(t, a.token).get(`/api/v4/personal_access_tokens?user_id=${b.id}`).expect(401)).body).toEqual({
      message: '401 Unauthorized',
    });
    expect(names((await admin().get(`/api/v4/personal_access_tokens?user_id=${b.id}`).expect(200)).body)).toEqual([
      'test',
      'beta',
    ]);
    expect((await admin().get('/api/v4/personal_access_tokens?user_id=4242').expect(404)).body).toEqual({
      message: '404 Not Found',
    });
    expect((await api(t, a.token).get('/api/v4/personal_access_tokens?created_after=nope').expect(400)).body).toEqual({
      error: 'created_after is invalid',
    });
    expect(
      names(
        (await api(t, a.token).get(`/api/v4/personal_access_tokens?created_after=2000-01-01T00:00:00Z`).expect(200))
          .body,
      ),
    ).toHaveLength(3);
    await api(t).get('/api/v4/personal_access_tokens').expect(401);
    expect((await api(t, a.token).get(`/api/v4/personal_access_tokens/${a1.id}`).expect(200)).body.name).toBe(
      'alpha-one',
    );
  });

  it("another user's token is 404 as a missing one, for reading, revoking and rotating", async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    const theirs = await patFor(b.id);
    for (const [method, path] of [
      ['get', `/api/v4/personal_access_tokens/${theirs.id}`],
      ['delete', `/api/v4/personal_access_tokens/${theirs.id}`],
      ['post', `/api/v4/personal_access_tokens/${theirs.id}/rotate`],
      ['get', '/api/v4/personal_access_tokens/424242'],
    ] as const) {
      expect((await api(t, a.token)[method](path).expect(404)).body).toEqual({ message: '404 Not found' });
    }
    await api(t, theirs.token).get('/api/v4/user').expect(200);
    await api(t, a.token).get('/api/v4/personal_access_tokens/abc').expect(400);
  });

  it('self: shows, rotates and revokes the token of the request; the old value stops working at once', async () => {
    const u = await createUser(t);
    const pat = await patFor(u.id, { name: 'mine', scopes: ['api'] });
    const self = (await api(t, pat.token).get('/api/v4/personal_access_tokens/self').expect(200)).body;
    expect([self.id, self.name]).toEqual([pat.id, 'mine']);

    const rotated = (await api(t, pat.token).post('/api/v4/personal_access_tokens/self/rotate').expect(200)).body;
    expect(rotated).toMatchObject({ name: 'mine', scopes: ['api'], active: true, expires_at: inDays(7) });
    expect(rotated.id).not.toBe(pat.id);
    await api(t, pat.token).get('/api/v4/user').expect(401);
    expect((await admin().get(`/api/v4/personal_access_tokens/${pat.id}`).expect(200)).body.revoked).toBe(true);

    const again = (
      await admin()
        .post(`/api/v4/personal_access_tokens/${rotated.id}/rotate`)
        .send({ expires_at: inDays(3) })
        .expect(200)
    ).body;
    expect(again.expires_at).toBe(inDays(3));
    expect((await admin().post(`/api/v4/personal_access_tokens/${rotated.id}/rotate`).expect(400)).body).toEqual({
      message: '400 Bad request - token already revoked',
    });
    expect(
      (await admin().post(`/api/v4/personal_access_tokens/${again.id}/rotate`).send({ expires_at: 'soon' }).expect(400))
        .body,
    ).toEqual({ error: 'expires_at is invalid' });

    await api(t, again.token).delete('/api/v4/personal_access_tokens/self').expect(204);
    await api(t, again.token).get('/api/v4/user').expect(401);
    const events = (await admin().get(`/api/v4/audit_events?entity_type=User&entity_id=${u.id}`).expect(200)).body;
    expect(events.map((e: { details: Record<string, string> }) => e.details.add ?? e.details.remove).reverse()).toEqual(
      [
        'personal_access_token',
        'personal_access_token',
        'personal_access_token',
        'personal_access_token',
        'personal_access_token',
        'personal_access_token',
      ],
    );
  });

  it('records when a token was last used', async () => {
    const u = await createUser(t);
    const pat = await patFor(u.id);
    expect((await admin().get(`/api/v4/personal_access_tokens/${pat.id}`).expect(200)).body.last_used_at).toBeNull();
    await api(t, pat.token).get('/api/v4/user').expect(200);
    await tokenUseWritesSettled();
    // Written beside the request, not awaited by it: read until it is there.
    let used: string | null = null;
    for (let i = 0; i < 50 && used === null; i += 1) {
      used = (await admin().get(`/api/v4/personal_access_tokens/${pat.id}`).expect(200)).body.last_used_at;
      if (used === null) await new Promise((r) => setTimeout(r, 20));
    }
    expect(Date.now() - Date.parse(used ?? '')).toBeLessThan(60_000);
    expect(
      (
        await admin()
          .get(`/api/v4/personal_access_tokens?user_id=${u.id}&last_used_after=2000-01-01T00:00:00Z`)
          .expect(200)
      ).body.map((x: { id: number }) => x.id),
    ).toEqual([pat.id]);
  });
});
