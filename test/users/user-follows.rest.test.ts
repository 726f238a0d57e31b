import { createUser } from '../support/factories';
import { keys, USER_BASIC_KEYS } from '../support/keys';
import { api, useTestApp } from '../support/test-app';

/** Following users (later GitLab's users API; docs/rest.md#following). */
const t = useTestApp();

describe('POST /users/:id/follow and unfollow, GET followers and following', () => {
  it('follows once (304 the second time), lists both ways, unfollows once; signed-in callers only', async () => {
    const [ann, bob, cyd] = [await createUser(t), await createUser(t), await createUser(t)];
    const follow = await api(t, ann.token).post(`/api/v4/users/${bob.id}/follow`).expect(201);
    expect([follow.body.id, follow.body.username]).toEqual([bob.id, bob.username]);
    await api(t, ann.token).post(`/api/v4/users/${bob.id}/follow`).expect(304);
    await api(t, cyd.token).post(`/api/v4/users/${bob.id}/follow`).expect(201);
    await api(t, ann.token).post(`/api/v4/users/${cyd.id}/follow`).expect(201);

    const followers = await api(t, ann.token).get(`/api/v4/users/${bob.id}/followers`).expect(200);
    expect(followers.body.map((u: { username: string }) => u.username)).toEqual([cyd.username, ann.username]);
    expect(followers.headers['x-total']).toBe('2');
    expect(
      (await api(t, bob.token).get(`/api/v4/users/${ann.id}/following`).expect(200)).body.map(
        (u: { id: number }) => u.id,
      ),
    ).toEqual([cyd.id, bob.id]);
    expect((await api(t).get(`/api/v4/users/${bob.id}/followers`).expect(403)).body).toEqual({
      message: '403 Forbidden - Not authorized!',
    });
    await api(t).post(`/api/v4/users/${bob.id}/follow`).expect(401);
    expect((await api(t, ann.token).post('/api/v4/users/4242/follow').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await api(t, ann.token).post(`/api/v4/users/${ann.id}/follow`).expect(400)).body).toEqual({
      message: '400 Bad request - You cannot follow yourself',
    });

    await api(t, ann.token).post(`/api/v4/users/${bob.id}/unfollow`).expect(201);
    await api(t, ann.token).post(`/api/v4/users/${bob.id}/unfollow`).expect(304);
    expect((await api(t, ann.token).get(`/api/v4/users/${bob.id}/followers`).expect(200)).body).toHaveLength(1);
    expect(keys(followers.body[0])).toEqual(USER_BASIC_KEYS);
    expect(keys(follow.body)).toEqual(USER_BASIC_KEYS);
  });

  it('two concurrent follows of the same user store one row: one 201, one 304', async () => {
    const [ann, bob] = [await createUser(t), await createUser(t)];
    const statuses = await Promise.all(
      [1, 2].map(async () => (await api(t, ann.token).post(`/api/v4/users/${bob.id}/follow`)).status),
    );
    expect(statuses.sort()).toEqual([201, 304]);
  });
});
