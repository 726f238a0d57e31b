import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser } from '../support/factories';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/** python-gitlab 3.12 reads audit events with its own managers (gl.audit_events, group.audit_events, project.audit_events). */
const t = {} as TestApp;
let server: http.Server;
let host: string;

const python = pythonGitlab('audit events');
const describePython = python.describe;

beforeAll(async () => {
  server = http.createServer((req, res) => t.app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(t, await setupTestApp({ externalUrl: host }));
  await t.reset();
  await t.orm.em.getConnection().execute('delete from audit_events');
}, 60000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const SCRIPT = `
import json, sys
import gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
gl.settings.get()
s = gl.settings.get()
s.default_projects_limit = 12
s.save()
g = gl.groups.create({"name": "Audited", "path": "audited"})
p = gl.projects.create({"name": "site", "namespace_id": g.id})
out = {
  "instance": [(e.entity_type, e.details.get("change") or e.details.get("add")) for e in gl.audit_events.list(get_all=True)],
  "group": [e.details.get("add") for e in g.audit_events.list(get_all=True)],
  "project": [e.details.get("add") for e in p.audit_events.list(get_all=True)],
}
one = gl.audit_events.get(gl.audit_events.list(get_all=True)[-1].id)
out["one"] = [one.entity_type, one.details["change"], one.details["to"]]
events = gl.audit_events.list(get_all=True) + g.audit_events.list(get_all=True) + p.audit_events.list(get_all=True)
events += [one, g.audit_events.get(events[-2].id), p.audit_events.get(events[-1].id)]
out["id_types"] = sorted({type(e.id).__name__ for e in events})
print(json.dumps(out))
`;

describePython('python-gitlab reads audit events', () => {
  it('lists instance, group and project events and gets one, with integer ids', async () => {
    await createUser(t, { username: 'someone' });
    const stdout = await python.run(SCRIPT, [host, ROOT_TOKEN]);
    expect(JSON.parse(stdout)).toEqual({
      instance: [
        ['Project', 'project'],
        ['Group', 'group'],
        ['Gitlab::Audit::InstanceScope', 'default_projects_limit'],
      ],
      group: ['group'],
      project: ['project'],
      one: ['Gitlab::Audit::InstanceScope', 'default_projects_limit', '12'],
      id_types: ['int'],
    });
  });
});
