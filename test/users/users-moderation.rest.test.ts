import { createUser } from '../support/factories';
import { ALICE } from '../support/gpg-keys';
import { SSH_KEYS } from '../support/ssh-keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** Current GitLab's user moderation routes, identity removal and single-key reads (docs/client-routes.md). */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const sql = (text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params);
const stateOf = async (id: number) => (await admin().get(`/api/v4/users/${id}`).expect(200)).body.state as string;
/** [status, body as text] of POST /users/:id/<verb> as the administrator. */
const act = async (id: number, verb: string) => {
  const r = await admin().post(`/api/v4/users/${id}/${verb}`);
  return [r.status, r.text];
};
const dormant = (id: number) => sql(`update users set last_activity_on = current_date - 91 where id = ?`, [id]);

describe('POST /users/:id/deactivate, activate, ban, unban', () => {
  it.each(['deactivate', 'activate', 'ban', 'unban'])(
    '%s is for administrators: 401 anonymous, 403 users, 404 unknown users, 400 bad ids',
    async (verb) => {
      const u = await createUser(t);
      expect((await api(t).post(`/api/v4/users/${u.id}/${verb}`).expect(401)).body).toEqual({
        message: '401 Unauthorized',
      });
      expect((await api(t, u.token).post(`/api/v4/users/${u.id}/${verb}`).expect(403)).body).toEqual({
        message: '403 Forbidden',
      });
      expect((await admin().post(`/api/v4/users/4242/${verb}`).expect(404)).body).toEqual({
        message: '404 User Not Found',
      });
      expect((await admin().post(`/api/v4/users/abc/${verb}`).expect(400)).body).toEqual({ error: 'id is invalid' });
      expect(await stateOf(u.id)).toBe('active');
    },
  );

  it('deactivates a dormant user only (GitLab messages otherwise), activates it again; its token works only while active', async () => {
    const u = await createUser(t);
    await sql(`update users set last_activity_on = current_date - 5 where id = ?`, [u.id]);
    expect(await act(u.id, 'deactivate')).toEqual([
      403,
      JSON.stringify({
        message: 'The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated',
      }),
    ]);
    await dormant(u.id);
    expect(await act(u.id, 'deactivate')).toEqual([201, 'true']);
    expect(await stateOf(u.id)).toBe('deactivated');
    expect(await act(u.id, 'deactivate')).toEqual([201, 'null']);
    await api(t, u.token).get('/api/v4/user').expect(401);
    // A deactivated user is activated, not unblocked (current GitLab's 403).
    expect(await act(u.id, 'unblock')).toEqual([
      403,
      JSON.stringify({ message: '403 Forbidden - Deactivated users cannot be unblocked by the API' }),
    ]);
    expect(await act(u.id, 'activate')).toEqual([201, 'true']);
    expect(await act(u.id, 'activate')).toEqual([201, 'false']);
    expect((await api(t, u.token).get('/api/v4/user').expect(200)).body.id).toBe(u.id);
    // A user who has never been seen counts as dormant.
    const fresh = await createUser(t);
    expect(await act(fresh.id, 'deactivate')).toEqual([201, 'true']);
  });

  it('bans an active user only, unbans a banned one only; a blocked or banned user is neither activated nor deactivated', async () => {
    const u = await createUser(t);
    expect(await act(u.id, 'unban')).toEqual([403, JSON.stringify({ message: 'You cannot unban active users.' })]);
    expect(await act(u.id, 'ban')).toEqual([201, 'true']);
    expect(await stateOf(u.id)).toBe('banned');
    await api(t, u.token).get('/api/v4/user').expect(401);
    expect(await act(u.id, 'ban')).toEqual([403, JSON.stringify({ message: 'You cannot ban banned users.' })]);
    expect(await act(u.id, 'block')).toEqual([201, 'false']);
    expect(await act(u.id, 'activate')).toEqual([
      403,
      JSON.stringify({ message: '403 Forbidden - A blocked user must be unblocked to be activated' }),
    ]);
    await dormant(u.id);
    expect(await act(u.id, 'deactivate')).toEqual([
      403,
      JSON.stringify({ message: 'Error occurred. A blocked user cannot be deactivated' }),
    ]);
    expect(await act(u.id, 'unban')).toEqual([201, 'true']);
    expect(await stateOf(u.id)).toBe('active');
    expect(await act(u.id, 'block')).toEqual([201, 'true']);
    expect(await act(u.id, 'ban')).toEqual([403, JSON.stringify({ message: 'You cannot ban blocked users.' })]);
    // A deactivated user can be blocked (GitLab's `block` event from deactivated).
    const d = await createUser(t);
    expect(await act(d.id, 'deactivate')).toEqual([201, 'true']);
    expect(await act(d.id, 'block')).toEqual([201, 'true']);
    expect(await stateOf(d.id)).toBe('blocked');
  });

  it('of two concurrent bans one succeeds and one is refused; each change is one audit event on the user', async () => {
    const u = await createUser(t);
    const answers = await Promise.all([act(u.id, 'ban'), act(u.id, 'ban')]);
    expect(answers.map((a) => a[0]).sort()).toEqual([201, 403]);
    await act(u.id, 'unban');
    await act(u.id, 'deactivate');
    await act(u.id, 'activate');
    const events = (await admin().get(`/api/v4/audit_events?entity_type=User&entity_id=${u.id}`).expect(200)).body;
    expect(events.map((e: { details: { custom_message: string } }) => e.details.custom_message).reverse()).toEqual([
      'Banned user',
      'Unbanned user',
      'Deactivated user',
      'Activated user',
    ]);
  });

  it('the GraphQL payload mutations answer as the routes do', async () => {
    const u = await createUser(t);
    const gql = async (query: string) => (await admin().post('/api/graphql').send({ query }).expect(200)).body;
    const r = await gql(`mutation { userBan(input: { id: ${u.id} }) { changed errors } }`);
    expect(r).toEqual({ data: { userBan: { changed: true, errors: [] } } });
    const again = await gql(`mutation { userUnban(input: { id: ${u.id} }) { changed errors } }`);
    expect(again).toEqual({ data: { userUnban: { changed: true, errors: [] } } });
    expect(await stateOf(u.id)).toBe('active');
  });
});

describe('DELETE /users/:id/identities/:provider', () => {
  it('removes the identity of that provider (admin); 404 Identity and User otherwise', async () => {
    const created = (
      await admin()
        .post('/api/v4/users')
        .send({
          email: 'idn@example.com',
          username: 'idn',
          name: 'Idn',
          password: 'secret123',
          provider: 'ldapmain',
          extern_uid: 'uid=idn',
        })
        .expect(201)
    ).body;
    const u = await createUser(t);
    await api(t, u.token).delete(`/api/v4/users/${created.id}/identities/ldapmain`).expect(403);
    expect((await admin().delete(`/api/v4/users/${created.id}/identities/github`).expect(404)).body).toEqual({
      message: '404 Identity Not Found',
    });
    expect((await admin().delete(`/api/v4/users/4242/identities/ldapmain`).expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    await admin().delete(`/api/v4/users/${created.id}/identities/ldapmain`).expect(204);
    expect((await admin().get(`/api/v4/users/${created.id}`).expect(200)).body.identities).toEqual([]);
    await admin().delete(`/api/v4/users/${created.id}/identities/ldapmain`).expect(404);
    const events = (await admin().get(`/api/v4/audit_events?entity_type=User&entity_id=${created.id}`).expect(200))
      .body;
    expect(events[0].details).toMatchObject({
      remove: 'identity',
      target_type: 'Identity',
      target_details: 'ldapmain',
    });
  });
});

describe('GET /users/:id/keys/:key_id and GET /users/:id/gpg_keys/:key_id', () => {
  it("answers one of a user's keys to any caller; another user's key is 404 as a missing one", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const ssh = (
      await admin()
        .post(`/api/v4/users/${owner.id}/keys`)
        .send({ title: 'laptop', key: SSH_KEYS.rsa2048.key })
        .expect(201)
    ).body;
    const gpg = (await admin().post(`/api/v4/users/${owner.id}/gpg_keys`).send({ key: ALICE.key }).expect(201)).body;

    for (const caller of [api(t), api(t, other.token)]) {
      const k = (await caller.get(`/api/v4/users/${owner.id}/keys/${ssh.id}`).expect(200)).body;
      expect(k).toEqual(ssh);
    }
    expect((await api(t).get(`/api/v4/users/${owner.id}/gpg_keys/${gpg.id}`).expect(200)).body).toEqual(gpg);
    expect((await api(t).get(`/api/v4/users/${other.id}/keys/${ssh.id}`).expect(404)).body).toEqual({
      message: '404 Key Not Found',
    });
    expect((await api(t).get(`/api/v4/users/${other.id}/gpg_keys/${gpg.id}`).expect(404)).body).toEqual({
      message: '404 GPG Key Not Found',
    });
    expect((await api(t).get(`/api/v4/users/4242/keys/${ssh.id}`).expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await api(t).get(`/api/v4/users/4242/gpg_keys/${gpg.id}`).expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await api(t).get(`/api/v4/users/${owner.id}/keys/99999999999`).expect(404)).body).toEqual({
      message: '404 Key Not Found',
    });
  });
});
