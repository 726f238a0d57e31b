import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN } from '../support/test-app';
import { useServedTestApp } from '../support/served-app';
import { createRunner } from '../runners/runner-factories';

/**
 * python-gitlab 3.12's methods for the transfer, group-share and group-runner routes (docs/client-routes.md),
 * over real HTTP: Project.transfer, Group.share/unshare, Group.transfer, Group.runners.list.
 */

const python = pythonGitlab('transfer and share routes');

const served = useServedTestApp();

const SCRIPT = `
import json, sys
import gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
out = {}
top = gl.groups.create({"name": "top", "path": "top"})
sub = gl.groups.create({"name": "sub", "path": "sub", "parent_id": top.id})
other = gl.groups.create({"name": "other", "path": "other"})
partner = gl.groups.create({"name": "partner", "path": "partner"})
project = gl.projects.create({"name": "tool", "namespace_id": sub.id})

project.transfer(other.id)
out["project_by_id"] = gl.projects.get(project.id).path_with_namespace
project.transfer("top/sub")
out["project_by_path"] = gl.projects.get(project.id).path_with_namespace
try:
    project.transfer("top/sub")
    out["refused"] = None
except gitlab.exceptions.GitlabTransferProjectError as e:
    out["refused"] = [e.response_code, e.error_message]

top.share(partner.id, 30, expires_at="2031-01-31")
out["shared"] = gl.groups.get(top.id).attributes.get("shared_with_groups")
top.unshare(partner.id)
try:
    top.unshare(partner.id)
    out["unshared_twice"] = None
except gitlab.exceptions.GitlabDeleteError as e:
    out["unshared_twice"] = e.response_code

sub.transfer(other.id)
out["group_moved"] = [gl.groups.get(sub.id).full_path, gl.projects.get(project.id).path_with_namespace]
sub.transfer()
out["group_top_level"] = [gl.groups.get(sub.id).full_path, gl.groups.get(sub.id).parent_id]
try:
    sub.transfer()
    out["group_refused"] = None
except gitlab.exceptions.GitlabGroupTransferError as e:
    out["group_refused"] = [e.response_code, e.error_message]

out["runners"] = [r.description for r in top.runners.list(get_all=True)]
out["runners_tagged"] = [r.description for r in top.runners.list(tag_list=["gpu"], get_all=True)]
out["runners_active"] = [r.description for r in top.runners.list(scope="active", get_all=True)]
print(json.dumps(out))
`;

python.describe('python-gitlab on the transfer, share and group runner routes', () => {
  it('transfers projects and groups, shares and unshares a group, lists group runners', async () => {
    await createRunner(served.t, { shared: true, description: 'gpu-runner', tagList: ['gpu'] });
    await createRunner(served.t, { shared: true, description: 'paused-runner', active: false });
    const out = JSON.parse(await python.run(SCRIPT, [served.host, ROOT_TOKEN]));
    expect(out).toEqual({
      project_by_id: 'other/tool',
      project_by_path: 'top/sub/tool',
      // python-gitlab's error text: the server's message as sent.
      refused: [400, 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}'],
      shared: null, // GET /groups/:id stays GitLab 10.3's detail form (no shared_with_groups)
      unshared_twice: 404,
      group_moved: ['other/sub', 'other/sub/tool'],
      group_top_level: ['sub', null],
      group_refused: [400, 'Transfer failed: Group is already a root group.'],
      runners: ['gpu-runner', 'paused-runner'],
      runners_tagged: ['gpu-runner'],
      runners_active: ['gpu-runner'],
    });
  });
});
