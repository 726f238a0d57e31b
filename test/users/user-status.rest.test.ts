import { createUser } from '../support/factories';
import { api, useTestApp } from '../support/test-app';

/** User status (GitLab 11.0's API; docs/rest.md#user-status). */
const t = useTestApp();
const NONE = { emoji: null, availability: null, message: null, message_html: null, clear_status_at: null };

describe('GET|PUT /user/status and GET /users/:user_id/status', () => {
  it('sets, reads (by anyone, by id or username), clears; the GraphQL field shows it', async () => {
    const u = await createUser(t);
    expect((await api(t, u.token).get('/api/v4/user/status').expect(200)).body).toEqual(NONE);
    await api(t).get('/api/v4/user/status').expect(401);

    const set = await api(t, u.token)
      .put('/api/v4/user/status')
      .send({ message: 'on <leave>', availability: 'busy', clear_status_after: '3_days' })
      .expect(200);
    expect(set.body).toMatchObject({
      emoji: 'speech_balloon',
      availability: 'busy',
      message: 'on <leave>',
      message_html: 'on &lt;leave&gt;',
    });
    expect(Date.parse(set.body.clear_status_at) - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect((await api(t).get(`/api/v4/users/${u.id}/status`).expect(200)).body).toEqual(set.body);
    expect((await api(t).get(`/api/v4/users/${u.username}/status`).expect(200)).body).toEqual(set.body);
    const gql = await api(t, u.token)
      .post('/api/graphql')
      .send({ query: '{ currentUser { status { emoji message availability } } }' })
      .expect(200);
    expect(gql.body.data.currentUser.status).toEqual({
      emoji: 'speech_balloon',
      message: 'on <leave>',
      availability: 'BUSY',
    });

    // Every attribute is replaced: an emoji alone drops the message.
    expect((await api(t, u.token).put('/api/v4/user/status').send({ emoji: 'coffee' }).expect(200)).body).toMatchObject(
      {
        emoji: 'coffee',
        message: null,
        availability: 'not_set',
        clear_status_at: null,
      },
    );
    expect((await api(t, u.token).put('/api/v4/user/status').send({}).expect(200)).body).toEqual(NONE);
    expect((await api(t).get(`/api/v4/users/${u.id}/status`).expect(200)).body).toEqual(NONE);
  });

  it('refuses bad values with 400 and changes nothing; an expired status reads as none', async () => {
    const u = await createUser(t);
    const put = (body: Record<string, unknown>) => api(t, u.token).put('/api/v4/user/status').send(body);
    expect((await put({ message: 'x'.repeat(101) }).expect(400)).body).toEqual({
      message: { message: ['is too long (maximum is 100 characters)'] },
    });
    expect((await put({ emoji: 'not an emoji!' }).expect(400)).body).toEqual({
      message: { emoji: ['is not a valid emoji name'] },
    });
    expect((await put({ availability: 'away' }).expect(400)).body).toEqual({
      error: 'availability does not have a valid value',
    });
    expect((await put({ message: 'hi', clear_status_after: '2_days' }).expect(400)).body).toEqual({
      error: 'clear_status_after does not have a valid value',
    });
    expect((await api(t, u.token).get('/api/v4/user/status').expect(200)).body).toEqual(NONE);
    await put({ message: 'brb', clear_status_after: '30_minutes' }).expect(200);
    await t.orm.em.getConnection().execute(`update user_statuses set clear_status_at = now() - interval '1 second'`);
    expect((await api(t, u.token).get('/api/v4/user/status').expect(200)).body).toEqual(NONE);
    expect((await api(t).get('/api/v4/users/4242/status').expect(404)).body).toEqual({ message: '404 User Not Found' });
  });
});
