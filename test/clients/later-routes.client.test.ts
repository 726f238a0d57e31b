import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN } from '../support/test-app';
import { useServedTestApp } from '../support/served-app';
import { createGroup, createProject } from '../support/factories';
import { createJob } from '../runners/runner-factories';

/** python-gitlab 3.12's managers for routes GitLab added after 10.3 (docs/client-routes.md), over real HTTP. */

const python = pythonGitlab('later-routes');

const served = useServedTestApp();

const SCRIPT = `
import json, sys
import gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
ann = gl.users.create({"email": "ann@example.com", "username": "ann", "name": "Ann", "password": "secret123"})
bob = gl.users.create({"email": "bob@example.com", "username": "bob", "name": "Bob", "password": "secret123"})
top = gl.groups.create({"name": "top", "path": "top"})
sub = gl.groups.create({"name": "sub", "path": "sub", "parent_id": top.id})
project = gl.projects.create({"name": "tool", "namespace_id": sub.id})
top.members.create({"user_id": ann.id, "access_level": 30})
project.members.create({"user_id": bob.id, "access_level": 20})
gl.auth()
status = gl.user.status.get()
status.message = "in a meeting"
status.availability = "busy"
status.save()
out = {
  "group": sorted((m.username, m.access_level) for m in sub.members_all.list(get_all=True)),
  "project": sorted((m.username, m.access_level) for m in project.members_all.list(get_all=True)),
  "one": project.members_all.get(ann.id).access_level,
  "direct": sorted(m.username for m in project.members.list(get_all=True)),
  "descendants": [g.full_path for g in top.descendant_groups.list(get_all=True)],
  "environment": project.environments.get(project.environments.create({"name": "staging"}).id).slug,
  "pat": [
    (lambda pat: [pat.name, bool(pat.token), [t.name for t in gl.personal_access_tokens.list(user_id=ann.id)], gl.personal_access_tokens.delete(pat.id), [t.revoked for t in gl.personal_access_tokens.list(user_id=ann.id)]])(
      ann.personal_access_tokens.create({"name": "bot", "scopes": ["api"]})
    )
  ][0],
  "follow": [
    gl.users.get(bob.id).follow()["username"],
    [u.username for u in gl.users.get(bob.id).followers_users.list()],
    [u.username for u in gl.users.get(1).following_users.list()],
    gl.users.get(bob.id).unfollow()["username"],
    [u.username for u in gl.users.get(bob.id).followers_users.list()],
  ],
  "memberships": [[m.source_name, m.source_type, m.access_level] for m in gl.users.get(ann.id).memberships.list()],
  "starred": [project.star(), [p.path for p in gl.users.get(1).starred_projects.list()]],
  "project_groups": [g.full_path for g in project.groups.list()],
  "shared": (lambda friends: [project.share(friends.id, 30), [p.path_with_namespace for p in friends.shared_projects.list()]][1])(
    gl.groups.create({"name": "friends", "path": "friends"})
  ),
  "status": [gl.users.get(1).status.get().message, gl.users.get(1).status.get().availability, gl.user.status.get().emoji],
  "exists": [gl.namespaces.exists("top").suggests, gl.namespaces.exists("sub", parent_id=top.id).exists, gl.namespaces.exists("nope").exists],
}
print(json.dumps(out))
`;

python.describe('python-gitlab on later routes', () => {
  it('runs the later routes through python-gitlab managers and answers what REST tests expect', async () => {
    const out = JSON.parse(await python.run(SCRIPT, [served.host, ROOT_TOKEN]));
    expect(out).toEqual({
      group: [
        ['ann', 30],
        ['root', 50],
      ],
      project: [
        ['ann', 30],
        ['bob', 20],
        ['root', 50],
      ],
      one: 30,
      direct: ['bob'],
      descendants: ['top/sub'],
      environment: 'staging',
      pat: ['bot', true, ['bot'], null, [true]],
      follow: ['bob', ['root'], ['bob'], 'bob', []],
      memberships: [['top', 'Namespace', 30]],
      starred: [null, ['tool']],
      project_groups: ['top/sub', 'top'],
      shared: ['top/sub/tool'],
      status: ['in a meeting', 'busy', 'speech_balloon'],
      exists: [['top1'], true, false],
    });
  });
});

const JOBS = `
import json, sys
import gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
project = gl.projects.get(int(sys.argv[3]))
jobs = project.jobs.list(get_all=True)
print(json.dumps({
  "all": [[j.name, j.status] for j in jobs],
  "failed": [j.name for j in project.jobs.list(scope="failed")],
  "one": project.jobs.get(jobs[-1].id).name,
  "pipeline": [j.name for j in project.pipelines.get(jobs[-1].pipeline["id"], lazy=True).jobs.list()],
}))
`;

python.describe('python-gitlab on the jobs read routes', () => {
  it("lists a project's jobs, filters by scope, gets one, lists a pipeline's", async () => {
    const group = await createGroup(served.t);
    const project = await createProject(served.t, { namespace: group });
    await createJob(served.t, { project, runner: null, status: 'success', name: 'build' });
    await createJob(served.t, { project, runner: null, status: 'failed', name: 'test' });
    const out = JSON.parse(await python.run(JOBS, [served.host, ROOT_TOKEN, String(project.id)]));
    expect(out).toEqual({
      all: [
        ['test', 'failed'],
        ['build', 'success'],
      ],
      failed: ['test'],
      one: 'build',
      pipeline: ['build'],
    });
  });
});
