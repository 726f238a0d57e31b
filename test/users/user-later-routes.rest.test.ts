import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** Later GitLab's users API routes: associations count, preferences, and the avatar API (docs/client-routes.md#users). */
const t = useTestApp();

const PREFERENCE_KEYS = [
  'id',
  'pass_user_identities_to_ci_jwt',
  'show_whitespace_in_diffs',
  'user_id',
  'view_diffs_file_by_file',
];
const COUNT_KEYS = ['groups_count', 'issues_count', 'merge_requests_count', 'projects_count'];

/** A real 1×1 RGB PNG, built here so the test owns its bytes. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])),
    chunk('IDAT', zlib.deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');

describe('GET /users/:id/associations_count', () => {
  it('counts direct group and project memberships for the user and admins; 0 issues and merge requests', async () => {
    const u = await createUser(t);
    const g1 = await createGroup(t);
    const g2 = await createGroup(t, { parent: g1 });
    const p = await createProject(t, { namespace: g1 });
    await addGroupMember(t, g1, u, 30);
    await addGroupMember(t, g2, u, 10);
    await addProjectMember(t, p, u, 20);
    const own = await api(t, u.token).get(`/api/v4/users/${u.id}/associations_count`).expect(200);
    expect(Object.keys(own.body).sort()).toEqual(COUNT_KEYS);
    expect(own.body).toEqual({ groups_count: 2, projects_count: 1, issues_count: 0, merge_requests_count: 0 });
    const admin = await api(t, ROOT_TOKEN).get(`/api/v4/users/${u.id}/associations_count`).expect(200);
    expect(admin.body).toEqual(own.body);
    // GraphQL: GitLab's User.groupCount and User.projectCount, the same counts for the same callers.
    const counts = async (token: string) => {
      const res = await api(t, token).graphql(`{ user(id: "gid://gitlab/User/${u.id}") { groupCount projectCount } }`);
      expect(res.body.errors).toBeUndefined();
      return res.body.data.user;
    };
    expect(await counts(u.token)).toEqual({ groupCount: 2, projectCount: 1 });
    expect(await counts(ROOT_TOKEN)).toEqual({ groupCount: 2, projectCount: 1 });
    // An expired membership no longer counts.
    await t.orm.em
      .getConnection()
      .execute(`update group_members set expires_at = current_date - 1 where group_id = ? and user_id = ?`, [
        g2.id,
        u.id,
      ]);
    expect((await api(t, u.token).get(`/api/v4/users/${u.id}/associations_count`).expect(200)).body.groups_count).toBe(
      1,
    );
    expect(await counts(u.token)).toEqual({ groupCount: 1, projectCount: 1 });
  });

  it('401 anonymous, 403 another user, 404 unknown user, 400 a bad id', async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    expect((await api(t).get(`/api/v4/users/${u.id}/associations_count`).expect(401)).body).toEqual({
      message: '401 Unauthorized',
    });
    expect((await api(t, other.token).get(`/api/v4/users/${u.id}/associations_count`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await api(t, u.token).get('/api/v4/users/987654/associations_count').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await api(t, u.token).get('/api/v4/users/abc/associations_count').expect(400)).body).toEqual({
      error: 'id is invalid',
    });
    // GitLab's order: the parameters, then authentication.
    await api(t).get('/api/v4/users/abc/associations_count').expect(400, { error: 'id is invalid' });
    // GraphQL (GitLab's User.groupCount / projectCount): null for another user and anonymous callers, not an error.
    const query = `{ user(id: "gid://gitlab/User/${u.id}") { groupCount projectCount } }`;
    const gql = await api(t, other.token).post('/api/graphql').send({ query }).expect(200);
    expect(gql.body).toEqual({ data: { user: { groupCount: null, projectCount: null } } });
    expect((await api(t).post('/api/graphql').send({ query }).expect(200)).body).toEqual({
      data: { user: { groupCount: null, projectCount: null } },
    });
    const own = await api(t, u.token).post('/api/graphql').send({ query }).expect(200);
    expect(own.body.data.user).toEqual({ groupCount: 0, projectCount: 0 });
  });
});

describe('GET|PUT /user/preferences', () => {
  it("answers GitLab's defaults before any change, then the stored values; the others are kept", async () => {
    const u = await createUser(t);
    const fresh = await api(t, u.token).get('/api/v4/user/preferences').expect(200);
    expect(Object.keys(fresh.body).sort()).toEqual(PREFERENCE_KEYS);
    expect(fresh.body).toEqual({
      id: null,
      user_id: u.id,
      view_diffs_file_by_file: false,
      show_whitespace_in_diffs: true,
      pass_user_identities_to_ci_jwt: false,
    });
    const put = await api(t, u.token)
      .put('/api/v4/user/preferences')
      .send({ view_diffs_file_by_file: true, show_whitespace_in_diffs: false })
      .expect(200);
    expect(put.body).toEqual({
      id: expect.any(Number),
      user_id: u.id,
      view_diffs_file_by_file: true,
      show_whitespace_in_diffs: false,
      pass_user_identities_to_ci_jwt: false,
    });
    // Form bodies too; one attribute changes, the others stay.
    const again = await api(t, u.token)
      .put('/api/v4/user/preferences')
      .type('form')
      .send('pass_user_identities_to_ci_jwt=true')
      .expect(200);
    expect(again.body).toEqual({ ...put.body, pass_user_identities_to_ci_jwt: true });
    expect((await api(t, u.token).get('/api/v4/user/preferences').expect(200)).body).toEqual(again.body);
    // Another user's preferences are their own.
    const other = await createUser(t);
    expect((await api(t, other.token).get('/api/v4/user/preferences').expect(200)).body.view_diffs_file_by_file).toBe(
      false,
    );
    const gql = await api(t, u.token)
      .post('/api/graphql')
      .send({
        query:
          '{ currentUser { preferences { viewDiffsFileByFile showWhitespaceInDiffs passUserIdentitiesToCiJwt } } }',
      })
      .expect(200);
    expect(gql.body.data.currentUser.preferences).toEqual({
      viewDiffsFileByFile: true,
      showWhitespaceInDiffs: false,
      passUserIdentitiesToCiJwt: true,
    });
  });

  it("400 without any attribute or with a bad boolean; 401 anonymous; GraphQL's userPreferencesUpdate", async () => {
    const u = await createUser(t);
    expect((await api(t, u.token).put('/api/v4/user/preferences').send({}).expect(400)).body).toEqual({
      error:
        'view_diffs_file_by_file, show_whitespace_in_diffs, pass_user_identities_to_ci_jwt are missing, at least one parameter must be provided',
    });
    expect(
      (await api(t, u.token).put('/api/v4/user/preferences').send({ view_diffs_file_by_file: 'maybe' }).expect(400))
        .body,
    ).toEqual({ error: 'view_diffs_file_by_file is invalid' });
    await api(t).get('/api/v4/user/preferences').expect(401);
    await api(t).put('/api/v4/user/preferences').send({ view_diffs_file_by_file: true }).expect(401);
    const gql = await api(t, u.token)
      .post('/api/graphql')
      .send({
        query:
          'mutation { userPreferencesUpdate(input: { showWhitespaceInDiffs: false }) { userPreferences { showWhitespaceInDiffs viewDiffsFileByFile } errors } }',
      })
      .expect(200);
    expect(gql.body.data.userPreferencesUpdate).toEqual({
      userPreferences: { showWhitespaceInDiffs: false, viewDiffsFileByFile: false },
      errors: [],
    });
    expect((await api(t, u.token).get('/api/v4/user/preferences').expect(200)).body.show_whitespace_in_diffs).toBe(
      false,
    );
  });
});

describe('GET /avatar', () => {
  it("answers the user's uploaded avatar, else Gravatar's URL (size doubled, default 40); anonymous allowed", async () => {
    const u = await createUser(t, { username: 'pictured' });
    await api(t, ROOT_TOKEN).put(`/api/v4/users/${u.id}`).attach('avatar', png(), 'me.png').expect(200);
    const mine = await api(t).get('/api/v4/avatar').query({ email: 'Pictured@Example.com' }).expect(200);
    expect(mine.body).toEqual({ avatar_url: `http://gitlab.test/uploads/-/system/user/avatar/${u.id}/me.png` });

    const plain = await api(t).get('/api/v4/avatar').query({ email: ' Someone@Example.com ' }).expect(200);
    expect(plain.body).toEqual({
      avatar_url: `https://www.gravatar.com/avatar/${md5('someone@example.com')}?s=80&d=identicon`,
    });
    const sized = await api(t, u.token).get('/api/v4/avatar').query({ email: 'someone@example.com', size: 32 });
    expect(sized.body.avatar_url).toBe(
      `https://www.gravatar.com/avatar/${md5('someone@example.com')}?s=64&d=identicon`,
    );
    // A user without an upload gets Gravatar's URL for the address.
    const bare = await createUser(t, { username: 'bare' });
    expect((await api(t).get('/api/v4/avatar').query({ email: 'bare@example.com' }).expect(200)).body.avatar_url).toBe(
      `https://www.gravatar.com/avatar/${md5('bare@example.com')}?s=80&d=identicon`,
    );
    expect(bare.id).toBeGreaterThan(0);
  });

  it('null when avatar_enabled is off; 403 for anonymous callers when public is restricted; 400 bad params', async () => {
    await api(t).get('/api/v4/avatar').expect(400, { error: 'email is missing' });
    // Grape's `requires` takes a blank value: no address, no Gravatar URL (GitLab's GravatarService).
    await api(t).get('/api/v4/avatar').query({ email: '' }).expect(200, { avatar_url: null });
    await api(t)
      .get('/api/v4/avatar')
      .query({ email: 'a@example.com', size: 'big' })
      .expect(400, { error: 'size is invalid' });
    await api(t, ROOT_TOKEN).put('/api/v4/application/settings').send({ avatar_enabled: false }).expect(200);
    expect((await api(t).get('/api/v4/avatar').query({ email: 'a@example.com' }).expect(200)).body).toEqual({
      avatar_url: null,
    });
    await api(t, ROOT_TOKEN)
      .put('/api/v4/application/settings')
      .send({ avatar_enabled: true, restricted_visibility_levels: ['public'] })
      .expect(200);
    expect((await api(t).get('/api/v4/avatar').query({ email: 'a@example.com' }).expect(403)).body).toEqual({
      message: '403 Forbidden - Unauthorized access',
    });
    const u = await createUser(t);
    await api(t, u.token).get('/api/v4/avatar').query({ email: 'a@example.com' }).expect(200);
    const gql = await api(t)
      .post('/api/graphql')
      .send({ query: '{ avatarLookup(email: "a@example.com") { avatarUrl } }' })
      .expect(200);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    await api(t, ROOT_TOKEN).put('/api/v4/application/settings').send({ restricted_visibility_levels: [] }).expect(200);
  });
});
