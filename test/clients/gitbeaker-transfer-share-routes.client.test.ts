import { Gitlab } from '@gitbeaker/rest';
import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { ROOT_TOKEN } from '../support/test-app';
import { useServedTestApp } from '../support/served-app';
import { createRunner } from '../runners/runner-factories';

/**
 * gitbeaker's methods for the transfer, share, member-import and group-runner routes
 * (docs/client-routes.md), over real HTTP.
 */

const served = useServedTestApp({ resetEach: true });
const paths = (list: { full_path?: unknown }[]) => list.map((g) => g.full_path);

describe('gitbeaker on the transfer and share routes', () => {
  it('lists transfer and share locations, transfers a project, imports members', async () => {
    const ann = await createUser(served.t, { username: 'ann' });
    const bob = await createUser(served.t, { username: 'bob' });
    const home = await createGroup(served.t, { path: 'home' });
    const away = await createGroup(served.t, { path: 'away' });
    const source = await createProject(served.t, { namespace: home, path: 'source' });
    const project = await createProject(served.t, { namespace: home, path: 'app' });
    await addGroupMember(served.t, home, ann, 50);
    await addGroupMember(served.t, away, ann, 40);
    await addProjectMember(served.t, source, bob, 30);
    const asAnn = new Gitlab({ host: served.host, token: ann.token });

    expect(paths(await asAnn.Projects.allTransferLocations(project.id))).toEqual(['away']);
    expect(paths(await asAnn.Projects.allSharableGroups(project.id))).toEqual(['away', 'home']);
    expect(paths(await asAnn.Projects.allSharableGroups(project.id, { search: 'away' } as never))).toEqual(['away']);

    const moved = await asAnn.Projects.transfer(project.id, 'away');
    expect(moved.path_with_namespace).toBe('away/app');
    // In `away` ann is Master, no longer the project's Owner: moving it again is GitLab's 403.
    await expect(asAnn.Projects.transfer(project.id, home.id)).rejects.toThrow('403 Forbidden');

    expect(await asAnn.Projects.importProjectMembers(project.id, source.id)).toEqual({ status: 'success' });
    const members = await asAnn.ProjectMembers.all(project.id);
    expect(members.map((m) => [m.username, m.access_level])).toEqual([['bob', 30]]);
  });

  it('shares, unshares and transfers groups, lists group transfer locations and group runners', async () => {
    const admin = new Gitlab({ host: served.host, token: ROOT_TOKEN });
    const top = await createGroup(served.t, { path: 'top' });
    const sub = await createGroup(served.t, { path: 'sub', parent: top });
    const other = await createGroup(served.t, { path: 'other', name: 'Other' });
    await createRunner(served.t, { shared: true, description: 'linux', tagList: ['linux'], contactedAt: new Date() });
    await createRunner(served.t, { shared: true, description: 'idle', active: false });

    const shared = await admin.Groups.share(top.id, other.id, 30, { expiresAt: '2031-01-31' });
    expect(shared.shared_with_groups).toEqual([
      {
        group_id: other.id,
        group_name: 'Other',
        group_full_path: 'other',
        group_access_level: 30,
        expires_at: '2031-01-31',
      },
    ]);
    await admin.Groups.unshare(top.id, other.id, {});
    await expect(admin.Groups.unshare(top.id, other.id, {})).rejects.toThrow('404 Group Link Not Found');

    expect(paths(await admin.Groups.allTransferLocations(sub.id))).toEqual(['other']);
    // gitbeaker types the answer as void; GitLab (and this service) answer the group's detail form.
    type Moved = { full_path: string; parent_id: number | null };
    const moved = (await admin.Groups.transfer(sub.id, { groupId: other.id })) as unknown as Moved;
    expect([moved.full_path, moved.parent_id]).toEqual(['other/sub', other.id]);
    const topLevel = (await admin.Groups.transfer(sub.id)) as unknown as Moved;
    expect([topLevel.full_path, topLevel.parent_id]).toEqual(['sub', null]);

    const runners = await admin.Runners.all({ groupId: top.id });
    expect(runners.map((r) => r.description)).toEqual(['linux', 'idle']);
    const paused = await admin.Runners.all({ groupId: top.id, paused: true } as never);
    expect(paused.map((r) => r.description)).toEqual(['idle']);
    const online = await admin.Runners.all({ groupId: top.id, status: 'online', type: 'instance_type' } as never);
    expect(online.map((r) => r.description)).toEqual(['linux']);
    const tagged = await admin.Runners.all({ groupId: top.id, tagList: ['linux'] } as never);
    expect(tagged.map((r) => r.description)).toEqual(['linux']);
  });
});
