import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/** python-gitlab 3.12 forks, lists forks and a project's users, links and unlinks forks, creates for a user, reads user activities. */
const t = {} as TestApp;
let server: http.Server;
let host: string;

const python = pythonGitlab('forks');
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
u = gl.users.create({"email": "fk@example.com", "username": "fk", "name": "Fk", "password": "secret123"})
p = gl.users.get(u.id).projects.create({"name": "upstream", "visibility": "public"})
src = gl.projects.get(p.id)
out = {"created": [src.path_with_namespace, src.owner["username"], src.creator_id == u.id, src._links["self"].endswith("/api/v4/projects/%d" % p.id)]}
g = gl.groups.create({"name": "Forkers", "path": "forkers", "visibility": "public"})
fork = src.forks.create({"namespace": "forkers"})
out["fork"] = [fork.path_with_namespace, fork.forked_from_project["id"] == p.id]
out["forks"] = [f.path_with_namespace for f in src.forks.list()]
out["forks_count"] = gl.projects.get(p.id).forks_count
out["users"] = [x.username for x in src.users.list()]
other = gl.projects.create({"name": "other"})
other.create_fork_relation(p.id)
out["linked"] = gl.projects.get(other.id).forked_from_project["id"] == p.id
other.delete_fork_relation()
out["unlinked"] = "forked_from_project" not in gl.projects.get(other.id).attributes
out["activities"] = sorted(a.username for a in gl.user_activities.list())
print(json.dumps(out))
`;

describePython('python-gitlab forks', () => {
  it('forks, lists forks and users, links and unlinks, creates for a user, reads activities', async () => {
    const stdout = await python.run(SCRIPT, [host, ROOT_TOKEN]);
    expect(JSON.parse(stdout)).toEqual({
      created: ['fk/upstream', 'fk', true, true],
      fork: ['forkers/upstream', true],
      forks: ['forkers/upstream'],
      forks_count: 1,
      users: ['fk'],
      linked: true,
      unlinked: true,
      activities: ['root'],
    });
  });
});
