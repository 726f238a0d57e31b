import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gitlab } from '@gitbeaker/rest';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/** gitbeaker and python-gitlab 3.12 send avatars as multipart files (always named avatar.png) and reads them back at avatar_url. */
const t = {} as TestApp;
let server: http.Server;
let host: string;

const python = pythonGitlab('avatars');
const describePython = python.describe;

beforeAll(async () => {
  server = http.createServer((req, res) => t.app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(t, await setupTestApp({ externalUrl: host }));
  await t.reset();
}, 60000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

// A 1×1 GIF sent as python-gitlab sends every image (file name avatar.png), then fetched at avatar_url.
const SCRIPT = `
import base64, hashlib, json, sys
import gitlab, requests
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
gif = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==")
u = gl.users.create({"email": "py@example.com", "password": "secret-password", "name": "Py", "username": "py", "avatar": gif})
created = u.avatar_url
u = gl.users.get(u.id)
u.avatar = gif + b"\\0"
u.save()
u = gl.users.get(u.id)
got = requests.get(u.avatar_url)
p = gl.projects.create({"name": "pic", "avatar": gif, "visibility": "public"})
pg = requests.get(gl.projects.get(p.id).avatar_url)
print(json.dumps({
  "created": created.rsplit("/", 1)[1],
  "url": u.avatar_url.split("/uploads/", 1)[1].split("/", 3)[:3],
  "status": got.status_code, "type": got.headers["Content-Type"],
  "same": hashlib.sha256(got.content).hexdigest() == hashlib.sha256(gif + b"\\0").hexdigest(),
  "project": [pg.status_code, pg.content == gif],
}))
`;

describePython('python-gitlab uploads avatars', () => {
  it('creates and updates a user and creates a project with an avatar, and reads the bytes back', async () => {
    const stdout = await python.run(SCRIPT, [host, ROOT_TOKEN]);
    expect(JSON.parse(stdout)).toEqual({
      created: 'avatar.png',
      url: ['-', 'system', 'user'],
      status: 200,
      type: 'image/gif',
      same: true,
      project: [200, true],
    });
  });
});

describe('gitbeaker uploads avatars', () => {
  it('edits a user and a project with an avatar (multipart), and a group avatar part is ignored as 10.3 has none', async () => {
    const gl = new Gitlab({ host, token: ROOT_TOKEN });
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    const user = await gl.Users.create({
      email: 'gb-avatar@example.com',
      username: 'gb-avatar',
      name: 'GB',
      password: 'secret-password',
    });
    const edited = await gl.Users.edit(user.id as number, {
      bio: 'pictured',
      avatar: { content: new Blob([gif]), filename: 'face.gif' },
    });
    expect([edited.bio, edited.avatar_url]).toEqual([
      'pictured',
      `${host}/uploads/-/system/user/avatar/${user.id}/face.gif`,
    ]);
    const got = await fetch(edited.avatar_url as string);
    expect([
      got.status,
      got.headers.get('content-type'),
      Buffer.compare(Buffer.from(await got.arrayBuffer()), gif),
    ]).toEqual([200, 'image/gif', 0]);
    const project = await gl.Projects.create({ name: 'gb-pic' });
    const uploaded = await gl.Projects.uploadAvatar(project.id as number, {
      content: new Blob([gif]),
      filename: 'logo.gif',
    });
    expect(uploaded.avatar_url).toBe(`${host}/uploads/-/system/project/avatar/${project.id}/logo.gif`);
    const group = await gl.Groups.create('GB Group', 'gb-group', {
      avatar: { content: new Blob([gif]), filename: 'g.gif' },
    });
    expect([group.path, group.avatar_url]).toEqual([
      'gb-group',
      `${host}/uploads/-/system/group/avatar/${group.id}/g.gif`,
    ]);
    // Groups.downloadAvatar: GET /groups/:id/avatar answers the image itself.
    const downloaded = (await gl.Groups.downloadAvatar(group.id as number)) as unknown as Blob;
    expect(Buffer.compare(Buffer.from(await downloaded.arrayBuffer()), gif)).toBe(0);
  });
});
