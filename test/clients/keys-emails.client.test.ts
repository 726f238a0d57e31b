import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSH_KEYS } from '../support/ssh-keys';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/** python-gitlab 3.12's user.keys, user.emails, gl.user.keys, gl.user.emails and gl.keys against GitLab 10.3's routes. */
const t = {} as TestApp;
let server: http.Server;
let host: string;

const python = pythonGitlab('keys and emails');
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
url, token, key1, key2 = sys.argv[1:5]
gl = gitlab.Gitlab(url, private_token=token)
u = gl.users.create({"email": "py@example.com", "username": "py", "name": "Py", "password": "secret123"})
k = u.keys.create({"title": "laptop", "key": key1})
e = u.emails.create({"email": "Alt@Example.com"})
out = {"user_keys": [(x.title, x.key) for x in u.keys.list()], "user_emails": [x.email for x in u.emails.list()]}
got = gl.keys.get(k.id)
out["key_with_user"] = [got.title, got.user["username"]]
out["by_fingerprint"] = [gl.keys.get(fingerprint=fp).id == k.id for fp in sys.argv[5:7]]
try:
    u.keys.create({"title": "bad", "key": "ssh-rsa nope"})
except gitlab.exceptions.GitlabCreateError as err:
    out["error"] = [err.response_code, err.error_message]
me = gitlab.Gitlab(url, private_token=token)
me.headers["Sudo"] = "py"
me.auth()
mk = me.user.keys.create({"title": "mine", "key": key2})
out["own_keys"] = [x.title for x in me.user.keys.list()]
out["own_key"] = me.user.keys.get(mk.id).title
me.user.keys.delete(mk.id)
me_e = me.user.emails.create({"email": "own@example.com"})
out["own_emails"] = [x.email for x in me.user.emails.list()]
out["own_email"] = me.user.emails.get(me_e.id).email
me_e.delete()
k.delete()
e.delete()
out["after"] = [len(u.keys.list()), len(u.emails.list()), len(me.user.keys.list()), len(me.user.emails.list())]
print(json.dumps(out))
`;

describePython('python-gitlab keys and emails', () => {
  it('adds, lists, reads and deletes SSH keys and e-mails of a user and of the current user', async () => {
    const stdout = await python.run(SCRIPT, [
      host,
      ROOT_TOKEN,
      SSH_KEYS.rsa2048.key,
      SSH_KEYS.ed25519.key,
      SSH_KEYS.rsa2048.fingerprint,
      SSH_KEYS.rsa2048.sha256,
    ]);
    expect(JSON.parse(stdout)).toEqual({
      user_keys: [['laptop', SSH_KEYS.rsa2048.key]],
      user_emails: ['alt@example.com'],
      key_with_user: ['laptop', 'py'],
      by_fingerprint: [true, true],
      error: [
        400,
        { fingerprint: ['cannot be generated'], key: ['type is forbidden. Must be RSA, DSA, ECDSA, or ED25519'] },
      ],
      own_keys: ['laptop', 'mine'],
      own_key: 'mine',
      own_emails: ['alt@example.com', 'own@example.com'],
      own_email: 'own@example.com',
      after: [0, 0, 0, 0],
    });
  });
});
