import zlib from 'node:zlib';
import request from 'supertest';
import { addProjectMember, createProject, createUser, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

/** A real 2×2 RGB PNG (signature, IHDR, IDAT, IEND), built here so the test owns its bytes. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const raw = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const GIF = Buffer.from(
  'GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
  'latin1',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
const NOT_IMAGE = { message: { avatar: ['only images allowed'] } };

/** The path of an absolute avatar_url on this app. */
const pathOf = (url: string) => new URL(url).pathname;

describe('PUT /users/:id with an avatar', () => {
  it('stores the file and serves it byte for byte at avatar_url, with image headers', async () => {
    const u = await createUser(t, { username: 'pic' });
    const bytes = png();
    const res = await api(t, ROOT_TOKEN)
      .put(`/api/v4/users/${u.id}`)
      .field('bio', 'hi')
      .attach('avatar', bytes, 'me.png');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      bio: 'hi',
      avatar_url: `http://gitlab.test/uploads/-/system/user/avatar/${u.id}/me.png`,
    });
    expect((await api(t).get(`/api/v4/users/${u.id}`)).body.avatar_url).toBe(res.body.avatar_url);
    expect((await api(t, u.token).get('/api/v4/user')).body.avatar_url).toBe(res.body.avatar_url);
    expect(
      (await api(t, u.token).graphql(`{ user(id: ${u.id}) { avatarUrl } currentUser { avatarUrl } }`)).body.data,
    ).toEqual({ user: { avatarUrl: res.body.avatar_url }, currentUser: { avatarUrl: res.body.avatar_url } });

    const file = await api(t)
      .get(pathOf(res.body.avatar_url))
      .buffer(true)
      .parse((r, cb) => {
        const parts: Buffer[] = [];
        r.on('data', (c: Buffer) => parts.push(c));
        r.on('end', () => cb(null, Buffer.concat(parts)));
      });
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.body as Buffer, bytes)).toBe(0);
    expect(file.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(bytes.length),
      'content-disposition': 'inline; filename="me.png"',
      'x-content-type-options': 'nosniff',
      'cache-control': 'max-age=0, private, must-revalidate',
    });
    expect(file.headers['content-security-policy']).toContain('sandbox');
    expect(file.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await api(t).get(pathOf(res.body.avatar_url)).set('If-None-Match', file.headers.etag);
    expect([again.status, again.headers['content-length']]).toEqual([304, undefined]);
  });

  it('replaces the avatar, and shows it in member lists', async () => {
    const u = await createUser(t, { username: 'swap' });
    await api(t, ROOT_TOKEN).put(`/api/v4/users/${u.id}`).attach('avatar', png(), 'a.png').expect(200);
    const res = await api(t, ROOT_TOKEN).put(`/api/v4/users/${u.id}`).attach('avatar', GIF, 'b.gif');
    expect(res.body.avatar_url).toBe(`http://gitlab.test/uploads/-/system/user/avatar/${u.id}/b.gif`);
    expect((await api(t).get(`/uploads/-/system/user/avatar/${u.id}/a.png`)).status).toBe(404);
    const gif = await api(t).get(pathOf(res.body.avatar_url));
    expect([gif.status, gif.headers['content-type']]).toEqual([200, 'image/gif']);
    expect(await queryOne(t, 'select count(*)::int as n from avatars where user_id = ?', [u.id])).toEqual({ n: 1 });
    const p = await createProject(t, { namespace: { id: u.namespaceId } });
    await addProjectMember(t, p, u, 30);
    const members = await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/members`);
    expect(members.body.find((m: { id: number }) => m.id === u.id).avatar_url).toBe(res.body.avatar_url);
  });

  it('refuses what GitLab 10.3 refuses, and anything whose bytes are not a raster image', async () => {
    const u = await createUser(t);
    const put = () => api(t, ROOT_TOKEN).put(`/api/v4/users/${u.id}`);
    expect((await put().attach('avatar', SVG, 'logo.svg')).body).toEqual(NOT_IMAGE);
    expect((await put().attach('avatar', SVG, 'logo.png')).body).toEqual(NOT_IMAGE);
    expect((await put().attach('avatar', HTML, 'avatar.png')).body).toEqual(NOT_IMAGE);
    expect((await put().attach('avatar', png(), 'avatar.html')).body).toEqual(NOT_IMAGE);
    expect((await put().attach('avatar', png(), 'noextension')).body).toEqual(NOT_IMAGE);
    expect((await put().attach('avatar', Buffer.alloc(0), 'empty.png')).status).toBe(400);
    const big = Buffer.concat([png(), Buffer.alloc(200 * 1024)]);
    const tooBig = await put().attach('avatar', big, 'big.png');
    expect([tooBig.status, tooBig.body]).toEqual([
      400,
      { message: { avatar: ['is too big (should be at most 200 KB)'] } },
    ]);
    const both = await put().attach('avatar', Buffer.concat([HTML, Buffer.alloc(210 * 1024)]), 'x.png');
    expect(both.body).toEqual({
      message: { avatar: ['only images allowed', 'is too big (should be at most 200 KB)'] },
    });
    const huge = await put().attach('avatar', Buffer.alloc(1024 * 1024 + 1), 'huge.png');
    expect([huge.status, huge.body]).toEqual([413, { error: 'Multipart body refused: File too large (avatar)' }]);
    // Grape's `type: File`: a plain field (or a JSON string) is not a file.
    expect((await put().field('avatar', 'iVBORw0KGgo=')).body).toEqual({ error: 'avatar is invalid' });
    expect((await put().send({ avatar: 'data:image/png;base64,iVBORw0KGgo=' })).body).toEqual({
      error: 'avatar is invalid',
    });
    expect((await put().attach('avatar', png(), 'a.png').attach('avatar', png(), 'b.png')).status).toBe(400);
    expect(await queryOne(t, 'select count(*)::int as n from avatars')).toEqual({ n: 0 });
    expect((await api(t).get(`/api/v4/users/${u.id}`)).body.avatar_url).toBeNull();
  });

  it('keeps only a safe file name (no path, no odd characters) and serves a PNG polyglot as an image only', async () => {
    const u = await createUser(t);
    const polyglot = Buffer.concat([png(), Buffer.from('<html><script>alert(1)</script></html>')]);
    const res = await api(t, ROOT_TOKEN)
      .put(`/api/v4/users/${u.id}`)
      .attach('avatar', polyglot, '../../etc/"evil" name;.png');
    expect(res.body.avatar_url).toBe(`http://gitlab.test/uploads/-/system/user/avatar/${u.id}/_evil__name_.png`);
    const file = await api(t).get(pathOf(res.body.avatar_url));
    expect(file.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline; filename="_evil__name_.png"',
    });
  });
});

describe('POST /users with an avatar', () => {
  it('creates the user with its avatar in one request', async () => {
    const res = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .field('email', 'new@example.com')
      .field('password', 'secret-password')
      .field('name', 'New')
      .field('username', 'newbie')
      .attach('avatar', GIF, 'face.gif');
    expect(res.status).toBe(201);
    expect(res.body.avatar_url).toBe(`http://gitlab.test/uploads/-/system/user/avatar/${res.body.id}/face.gif`);
    expect((await api(t).get(pathOf(res.body.avatar_url))).status).toBe(200);
  });

  it('creates nothing when the avatar is refused', async () => {
    const res = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .field('email', 'no@example.com')
      .field('password', 'secret-password')
      .field('name', 'No')
      .field('username', 'nope')
      .attach('avatar', SVG, 'x.svg');
    expect([res.status, res.body]).toEqual([400, NOT_IMAGE]);
    expect(await queryOne(t, `select count(*)::int as n from users where username = 'nope'`)).toEqual({ n: 0 });
  });
});

describe('GET /uploads/-/system/…/avatar/:id/:filename', () => {
  it('serves user avatars to anyone and answers 404 for anything else', async () => {
    const u = await createUser(t);
    const { body } = await api(t, ROOT_TOKEN).put(`/api/v4/users/${u.id}`).attach('avatar', png(), 'a.png');
    expect((await api(t).get(pathOf(body.avatar_url))).status).toBe(200);
    expect((await api(t, u.token).get(pathOf(body.avatar_url))).status).toBe(200);
    expect((await api(t, 'bad-token').get(pathOf(body.avatar_url))).body).toEqual({ message: '401 Unauthorized' });
    for (const path of [
      `/uploads/-/system/user/avatar/${u.id}/b.png`,
      `/uploads/-/system/user/avatar/99999999999/a.png`,
      '/uploads/-/system/user/avatar/x/a.png',
      `/uploads/-/system/group/avatar/${u.id}/a.png`,
    ]) {
      const res = await api(t).get(path);
      expect([path, res.status, res.body]).toEqual([path, 404, { error: '404 Not Found' }]);
    }
  });

  it('is served by every instance on the database', async () => {
    const u = await createUser(t);
    const { body } = await api(t, ROOT_TOKEN).put(`/api/v4/users/${u.id}`).attach('avatar', GIF, 'g.gif');
    const other = await t.secondInstance();
    try {
      const res = await request(other.app).get(pathOf(body.avatar_url));
      expect([res.status, res.headers['content-type'], Buffer.compare(res.body as Buffer, GIF)]).toEqual([
        200,
        'image/gif',
        0,
      ]);
    } finally {
      await other.close();
    }
  });

  it('removes the avatar with its user', async () => {
    const u = await createUser(t);
    const { body } = await api(t, ROOT_TOKEN).put(`/api/v4/users/${u.id}`).attach('avatar', png(), 'a.png');
    await api(t, ROOT_TOKEN).delete(`/api/v4/users/${u.id}`).expect(204);
    expect(await queryOne(t, 'select count(*)::int as n from avatars')).toEqual({ n: 0 });
    expect((await api(t).get(pathOf(body.avatar_url))).status).toBe(404);
  });
});

describe('project avatars (POST/PUT /projects)', () => {
  it('stores them and serves them to whoever may read the project', async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const created = await api(t, owner.token)
      .post('/api/v4/projects')
      .field('name', 'Pictured')
      .attach('avatar', png(), 'logo.png');
    expect(created.status).toBe(201);
    const url = `http://gitlab.test/uploads/-/system/project/avatar/${created.body.id}/logo.png`;
    expect(created.body.avatar_url).toBe(url);
    expect((await api(t, owner.token).get(pathOf(url))).status).toBe(200);
    // A private project's avatar is as invisible as the project.
    expect((await api(t).get(pathOf(url))).status).toBe(404);
    expect((await api(t, stranger.token).get(pathOf(url))).status).toBe(404);
    const updated = await api(t, owner.token)
      .put(`/api/v4/projects/${created.body.id}`)
      .field('visibility', 'public')
      .attach('avatar', GIF, 'logo.gif');
    expect(updated.body.avatar_url).toBe(
      `http://gitlab.test/uploads/-/system/project/avatar/${created.body.id}/logo.gif`,
    );
    expect((await api(t).get(pathOf(updated.body.avatar_url))).status).toBe(200);
    const gql = await api(t).graphql(`{ project(id: "${created.body.id}") { avatarUrl } }`);
    expect(gql.body.data.project.avatarUrl).toBe(updated.body.avatar_url);
    const list = await api(t).get('/api/v4/projects');
    expect(list.body.map((p: { avatar_url: string }) => p.avatar_url)).toEqual([updated.body.avatar_url]);
    expect(
      (await api(t, owner.token).put(`/api/v4/projects/${created.body.id}`).attach('avatar', SVG, 'x.svg')).body,
    ).toEqual(NOT_IMAGE);
  });
});

describe('file parts a route does not declare', () => {
  it('are ignored, as GitLab ignores undeclared parameters, on any route', async () => {
    const res = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .field('name', 'Attached')
      .field('path', 'attached')
      .attach('avatar', png(), 'a.png')
      .attach('logo', Buffer.alloc(300 * 1024, 1), 'big.bin');
    expect([res.status, res.body]).toMatchObject([201, { path: 'attached' }]);
    let many = api(t, ROOT_TOKEN).put(`/api/v4/groups/${res.body.id}`).field('description', 'd');
    for (let i = 0; i < 50; i += 1) many = many.attach(`f${i}`, Buffer.from('x'), `f${i}.txt`);
    expect([
      (await many).status,
      (await api(t, ROOT_TOKEN).get(`/api/v4/groups/${res.body.id}`)).body.description,
    ]).toEqual([200, 'd']);
  });

  it('are still bounded by the body limits: too many parts, too large a body', async () => {
    // A route without file parts (groups take an avatar since later GitLab's group avatars).
    let req = api(t, ROOT_TOKEN).post('/api/v4/broadcast_messages').field('message', 'P');
    for (let i = 0; i < 1000; i += 1) req = req.attach(`f${i}`, Buffer.from('x'), 'x.txt');
    expect((await req).status).toBe(413);
    const big = await api(t, ROOT_TOKEN)
      .post('/api/v4/broadcast_messages')
      .field('message', 'B')
      .attach('junk', Buffer.alloc(2 * 1024 * 1024 + 1), 'j.bin');
    expect([big.status, big.body]).toEqual([413, { error: 'The multipart body is larger than 2097152 bytes' }]);
  });
});

describe('GraphQL avatarUrl and avatar input', () => {
  it('takes a base64 data URL and answers the same avatarUrl as REST', async () => {
    const u = await createUser(t);
    const data = `data:image/png;base64,${png().toString('base64')}`;
    const res = await api(t, ROOT_TOKEN).graphql(
      'mutation($id: UserID!, $a: Upload) { userUpdate(input: { id: $id, avatar: $a }) { user { avatarUrl } errors } }',
      { id: u.id, a: data },
    );
    expect(res.body.data.userUpdate.user.avatarUrl).toBe(
      `http://gitlab.test/uploads/-/system/user/avatar/${u.id}/upload.png`,
    );
    expect((await api(t).get(`/api/v4/users/${u.id}`)).body.avatar_url).toBe(res.body.data.userUpdate.user.avatarUrl);
    const svg = await api(t, ROOT_TOKEN).graphql(
      'mutation($id: UserID!, $a: Upload) { userUpdate(input: { id: $id, avatar: $a }) { user { id } errors } }',
      { id: u.id, a: `data:image/svg+xml;base64,${SVG.toString('base64')}` },
    );
    expect(svg.body).toEqual({ data: { userUpdate: { user: null, errors: ['Avatar only images allowed'] } } });
    const bad = await api(t, ROOT_TOKEN).graphql(
      'mutation($id: UserID!, $a: Upload) { userUpdate(input: { id: $id, avatar: $a }) { user { id } errors } }',
      { id: u.id, a: 'not a data url' },
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
