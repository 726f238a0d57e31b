import zlib from 'node:zlib';
import { addGroupMember, createGroup, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

/** A real 2×2 RGB PNG, built here so the test owns its bytes. */
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

const bytesOf = (req: ReturnType<ReturnType<typeof api>['get']>) =>
  req.buffer(true).parse((r, cb) => {
    const parts: Buffer[] = [];
    r.on('data', (c: Buffer) => parts.push(c));
    r.on('end', () => cb(null, Buffer.concat(parts)));
  });

describe('group avatars', () => {
  it('takes `avatar` on POST /groups and PUT /groups/:id, shows avatar_url and serves the file', async () => {
    const bytes = png();
    const created = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .field('name', 'Pics')
      .field('path', 'pics')
      .attach('avatar', bytes, 'logo.png');
    expect(created.status).toBe(201);
    const url = `http://gitlab.test/uploads/-/system/group/avatar/${created.body.id}/logo.png`;
    expect(created.body.avatar_url).toBe(url);
    expect((await api(t, ROOT_TOKEN).get('/api/v4/groups/pics')).body.avatar_url).toBe(url);
    expect((await api(t, ROOT_TOKEN).graphql('{ group(fullPath: "pics") { avatarUrl } }')).body.data).toEqual({
      group: { avatarUrl: url },
    });

    const upload = await bytesOf(api(t, ROOT_TOKEN).get(new URL(url).pathname));
    expect(upload.status).toBe(200);
    expect(Buffer.compare(upload.body as Buffer, bytes)).toBe(0);
    expect(upload.headers['content-disposition']).toBe('inline; filename="logo.png"');

    const updated = await api(t, ROOT_TOKEN)
      .put(`/api/v4/groups/${created.body.id}`)
      .field('description', 'with a new logo')
      .attach('avatar', bytes, 'new.png');
    expect(updated.status).toBe(200);
    const newUrl = `http://gitlab.test/uploads/-/system/group/avatar/${created.body.id}/new.png`;
    expect(updated.body.avatar_url).toBe(newUrl);
    // Lists read the avatar with their rows; the detail with its row; a group without one shows null.
    await createGroup(t, { path: 'plain-pics', visibility: 'public' });
    const listed = await api(t, ROOT_TOKEN).get('/api/v4/groups?all_available=true&order_by=path');
    expect(listed.body.map((g: { path: string; avatar_url: string | null }) => [g.path, g.avatar_url])).toEqual([
      ['pics', newUrl],
      ['plain-pics', null],
    ]);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${created.body.id}`)).body.avatar_url).toBe(newUrl);
    const gql = await api(t, ROOT_TOKEN).graphql(
      '{ groups(search: "pics", sort: "path_asc") { nodes { avatarUrl } } }',
    );
    expect(gql.body.data.groups.nodes).toEqual([{ avatarUrl: newUrl }, { avatarUrl: null }]);
    const bad = await api(t, ROOT_TOKEN)
      .put(`/api/v4/groups/${created.body.id}`)
      .attach('avatar', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.svg');
    expect([bad.status, bad.body]).toEqual([400, { message: { avatar: ['only images allowed'] } }]);
    // gitbeaker's removeAvatar sends a blank `avatar`: not a file (as on projects).
    const blank = await api(t, ROOT_TOKEN).put(`/api/v4/groups/${created.body.id}`).send({ avatar: '' });
    expect([blank.status, blank.body]).toEqual([400, { error: 'avatar is invalid' }]);
  });

  it('GET /groups/:id/avatar sends the image as an attachment; 404s for a hidden group or no avatar', async () => {
    const bytes = png();
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const g = await createGroup(t, { path: 'secret' });
    await addGroupMember(t, g, owner, 50);
    const plain = await createGroup(t, { path: 'plain', visibility: 'public' });
    await api(t, owner.token).put(`/api/v4/groups/${g.id}`).attach('avatar', bytes, 'logo.png').expect(200);

    const res = await bytesOf(api(t, owner.token).get('/api/v4/groups/secret/avatar'));
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    expect(res.headers).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': 'attachment; filename="logo.png"',
      'x-content-type-options': 'nosniff',
    });
    const hidden = await api(t, stranger.token).get(`/api/v4/groups/${g.id}/avatar`);
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Group Not Found' }]);
    // The upload path hides it the same way.
    const path = `/uploads/-/system/group/avatar/${g.id}/logo.png`;
    expect((await api(t, stranger.token).get(path)).status).toBe(404);
    expect((await api(t).get(`/api/v4/groups/${plain.id}/avatar`)).body).toEqual({ message: '404 Avatar Not Found' });
    expect((await api(t, 'not-a-token').get(`/api/v4/groups/${plain.id}/avatar`)).status).toBe(401);
  });
});
