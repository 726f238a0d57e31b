import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';
import { ALICE } from '../support/gpg-keys';
import { SSH_KEYS } from '../support/ssh-keys';

/** python-gitlab 3.12 drives block/unblock, identities, custom attributes and a user's projects with its own managers. */
const t = {} as TestApp;
let server: http.Server;
let host: string;

const python = pythonGitlab('users');
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
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
u = gl.users.create({"email": "py@example.com", "username": "py", "name": "Py", "password": "secret123", "provider": "ldapmain", "extern_uid": "uid=py"})
out = {"identities": u.identities}
out["block"] = [u.block(), u.state, u.block(), gl.users.get(u.id).state, u.unblock(), u.unblock()]
u.customattributes.set("tier", "gold")
out["attrs"] = [(a.key, a.value) for a in u.customattributes.list()]
out["by_attr"] = [x.username for x in gl.users.list(custom_attributes={"tier": "gold"})]
out["by_identity"] = [x.username for x in gl.users.list(extern_uid="uid=py", provider="ldapmain")]
u.customattributes.delete("tier")
sudo = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
sudo.headers["Sudo"] = "py"
mine = sudo.projects.create({"name": "tool"})
as_admin = gl.projects.get(mine.id)
as_admin.customattributes.set("env", "prod")
out["project_attrs"] = [(a.key, a.value) for a in as_admin.customattributes.list()]
out["projects"] = [x.path_with_namespace for x in u.projects.list(get_all=True)]
out["projects_by_manager"] = [x.path_with_namespace for x in gl.users.get(u.id).projects.list(simple=True)]
print(json.dumps(out))
`;

describePython('python-gitlab users', () => {
  it("blocks and unblocks, sets identities and custom attributes, lists a user's projects", async () => {
    const stdout = await python.run(SCRIPT, [host, ROOT_TOKEN]);
    expect(JSON.parse(stdout)).toEqual({
      identities: [{ provider: 'ldapmain', extern_uid: 'uid=py' }],
      block: [true, 'blocked', false, 'blocked', true, false],
      attrs: [['tier', 'gold']],
      by_attr: ['py'],
      by_identity: ['py'],
      project_attrs: [['env', 'prod']],
      projects: ['py/tool'],
      projects_by_manager: ['py/tool'],
    });
  });
});

const MODERATION = `
import json, sys
import gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
u = gl.users.create({"email": "mod@example.com", "username": "mod", "name": "Mod", "password": "secret123", "provider": "ldapmain", "extern_uid": "uid=mod"})
out = {"deactivate": [u.deactivate(), u.state, gl.users.get(u.id).state, u.activate(), u.state]}
out["ban"] = [u.ban(), u.state, gl.users.get(u.id).state, u.unban(), u.state]
try:
    u.unban()
    out["unban_again"] = "no error"
except gitlab.exceptions.GitlabUnbanError as e:
    out["unban_again"] = [e.response_code, e.error_message]
u.identityproviders.delete("ldapmain")
out["identities"] = gl.users.get(u.id).identities
key = u.keys.create({"title": "laptop", "key": sys.argv[3]})
out["key"] = u.keys.get(key.id).title
gpg = u.gpgkeys.create({"key": sys.argv[4]})
out["gpg"] = u.gpgkeys.get(gpg.id).id == gpg.id
print(json.dumps(out))
`;

describePython('python-gitlab user moderation', () => {
  it('deactivates, activates, bans and unbans; deletes an identity; reads one SSH and one GPG key', async () => {
    const stdout = await python.run(MODERATION, [host, ROOT_TOKEN, SSH_KEYS.rsa2048.key, ALICE.key]);
    expect(JSON.parse(stdout)).toEqual({
      deactivate: [true, 'deactivated', 'deactivated', true, 'active'],
      ban: [true, 'banned', 'banned', true, 'active'],
      unban_again: [403, 'You cannot unban active users.'],
      identities: [],
      key: 'laptop',
      gpg: true,
    });
  });
});
