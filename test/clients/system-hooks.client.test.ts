import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../reliability/fault-support';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/** python-gitlab 3.12 manages system hooks with its own manager (gl.hooks) and the hook receives events. */
const t = {} as TestApp;
let server: http.Server;
let receiver: http.Server;
let host: string;
let hookUrl: string;
const received: Record<string, unknown>[] = [];

const python = pythonGitlab('system hooks');
const describePython = python.describe;

beforeAll(async () => {
  server = http.createServer((req, res) => t.app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ token: req.headers['x-gitlab-token'], ...JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/receive`;
  Object.assign(t, await setupTestApp({ externalUrl: host }));
  await t.reset();
}, 60000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

const SCRIPT = `
import json, sys
import gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
s = gl.settings.get()
s.allow_local_requests_from_system_hooks = True
s.save()
hook = gl.hooks.create({"url": sys.argv[3], "token": "py-secret", "enable_ssl_verification": False})
listed = [(h.id, h.url, h.push_events, h.enable_ssl_verification) for h in gl.hooks.list()]
tested = gl.hooks.get(hook.id)
g = gl.groups.create({"name": "Hooked", "path": "hooked"})
print(json.dumps({"created": [hook.url, hook.push_events, hook.tag_push_events, hook.enable_ssl_verification], "listed": listed, "id": hook.id,
                  "tested": tested.event_name}))
`;

const SCRIPT_DELETE = `
import json, sys
import gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
gl.hooks.delete(int(sys.argv[3]))
print(json.dumps([h.id for h in gl.hooks.list()]))
`;

const run = (script: string, ...args: string[]) => python.run(script, [host, ROOT_TOKEN, ...args]);

describePython('python-gitlab manages system hooks', () => {
  it('creates, lists, tests (GET, GitLab 10.3) and deletes a hook; the hook receives the group events', async () => {
    const out = JSON.parse(await run(SCRIPT, hookUrl));
    expect(out).toEqual({
      created: [hookUrl, true, false, false],
      listed: [[out.id, hookUrl, true, false]],
      id: out.id,
      tested: 'project_create',
    });
    await waitFor('the group events', () => received.length >= 3, 15000);
    expect(received.map((r) => [r.event_name, r.token])).toEqual([
      ['project_create', 'py-secret'],
      ['group_create', 'py-secret'],
      ['user_add_to_group', 'py-secret'],
    ]);
    expect(JSON.parse(await run(SCRIPT_DELETE, String(out.id)))).toEqual([]);
  });
});
