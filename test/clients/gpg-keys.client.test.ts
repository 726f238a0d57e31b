import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gitlab } from '@gitbeaker/rest';
import { ALICE, BOB, CAROL } from '../support/gpg-keys';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/** python-gitlab 3.12's own GPG key managers (user.gpgkeys, gl.user.gpgkeys) and gitbeaker's UserGPGKeys against GitLab 10.3's routes. */
const t = {} as TestApp;
let server: http.Server;
let host: string;

const python = pythonGitlab('GPG keys');
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

const SCRIPT = `
import json, sys
import gitlab
url, root, alice, bob, carol = sys.argv[1:6]
gl = gitlab.Gitlab(url, private_token=root)
u = gl.users.create({"email": "gpg@example.com", "username": "gpg", "name": "Gpg", "password": "secret123"})
k = u.gpgkeys.create({"key": bob})
out = {"created": [sorted(k.attributes), k.key == bob]}
c = u.gpgkeys.create({"key": carol})
out["listed"] = [x.id for x in u.gpgkeys.list()] == [k.id, c.id]
out["revoke"] = gl.http_post("/users/%d/gpg_keys/%d/revoke" % (u.id, c.id))
k.delete()
out["after_delete"] = u.gpgkeys.list()
token = u.impersonationtokens.create({"name": "gpg", "scopes": ["api"]}).token
me = gitlab.Gitlab(url, private_token=token)
me.auth()
mine = me.user.gpgkeys.create({"key": alice})
out["mine"] = [[x.id, x.key == alice] for x in me.user.gpgkeys.list()] == [[mine.id, True]]
out["got"] = me.user.gpgkeys.get(mine.id).key == alice
try:
    u.gpgkeys.create({"key": alice})
except gitlab.GitlabCreateError as e:
    out["duplicate"] = [e.response_code, e.error_message]
try:
    me.user.gpgkeys.create({"key": "ssh-rsa AAAA"})
except gitlab.GitlabCreateError as e:
    out["invalid"] = [e.response_code, e.error_message]
me.user.gpgkeys.delete(mine.id)
try:
    me.user.gpgkeys.get(mine.id)
except gitlab.GitlabGetError as e:
    out["gone"] = [e.response_code, e.error_message]
print(json.dumps(out))
`;

describePython('python-gitlab GPG keys', () => {
  it('adds, lists, gets, revokes and deletes GPG keys with user.gpgkeys and gl.user.gpgkeys', async () => {
    const stdout = await python.run(SCRIPT, [host, ROOT_TOKEN, ALICE.key, BOB.key, CAROL.key]);
    expect(JSON.parse(stdout)).toEqual({
      created: [['created_at', 'id', 'key', 'user_id'], true],
      listed: true,
      revoke: 202,
      after_delete: [],
      mine: true,
      got: true,
      duplicate: [400, { key: ['has already been taken'] }],
      invalid: [
        400,
        {
          key: [
            "is invalid. A valid public GPG key begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----' and ends with '-----END PGP PUBLIC KEY BLOCK-----'",
          ],
        },
      ],
      gone: [404, '404 GPG Key Not Found'],
    });
  });
});

describe('gitbeaker GPG keys', () => {
  it('adds, lists, shows and removes keys of a user (admin) and of the caller', async () => {
    await t.reset();
    const admin = new Gitlab({ host, token: ROOT_TOKEN });
    const user = await admin.Users.create({
      email: 'gbg@example.com',
      username: 'gbg',
      name: 'Gbg',
      password: 'secret123',
    });
    const added = await admin.UserGPGKeys.create(BOB.key, { userId: user.id });
    expect(Object.keys(added).sort()).toEqual(['created_at', 'id', 'key']);
    expect((await admin.UserGPGKeys.all({ userId: user.id })).map((k) => k.id)).toEqual([added.id]);
    const token = await admin.UserImpersonationTokens.create(user.id, 'gpg', ['api']);
    const me = new Gitlab({ host, token: token.token as string });
    const mine = await me.UserGPGKeys.create(ALICE.key);
    expect((await me.UserGPGKeys.show(mine.id)).key).toBe(ALICE.key);
    expect((await me.UserGPGKeys.all()).map((k) => k.id)).toEqual([added.id, mine.id]);
    await me.UserGPGKeys.remove(mine.id);
    await admin.UserGPGKeys.remove(added.id, { userId: user.id });
    expect(await me.UserGPGKeys.all()).toEqual([]);
    await expect(me.UserGPGKeys.show(mine.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});
