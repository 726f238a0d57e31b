import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gitlab } from '@gitbeaker/rest';
import { createGroup } from '../support/factories';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/**
 * An unmodified GitLab client (gitbeaker, over real HTTP) drives users, impersonation tokens,
 * groups, subgroups, projects, members and shares. gitbeaker pages by following rel="next" and
 * sends a `{}` JSON body with DELETE.
 */
// Link headers are built from EXTERNAL_URL, so the app is built after the server knows its port.
const t = {} as TestApp;
let server: http.Server;
let host: string;

beforeAll(async () => {
  server = http.createServer((req, res) => t.app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(t, await setupTestApp({ externalUrl: host }));
});
beforeEach(() => t.reset());
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('gitbeaker against the service', () => {
  it('creates users, tokens, groups, projects, members and shares with GitLab shapes', async () => {
    const admin = new Gitlab({ host, token: ROOT_TOKEN });
    const user = await admin.Users.create({
      email: 'gb@example.com',
      username: 'gb',
      name: 'Gitbeaker',
      password: 'secret123',
    });
    expect(user.username).toBe('gb');
    const token = await admin.UserImpersonationTokens.create(user.id, 'client', ['api']);
    expect(typeof token.token).toBe('string');
    const asUser = new Gitlab({ host, token: token.token as string });
    expect((await asUser.Users.showCurrentUser()).id).toBe(user.id);

    const group = await asUser.Groups.create('Client Group', 'client-group', { visibility: 'internal' });
    expect(group.full_path).toBe('client-group');
    const sub = await asUser.Groups.create('Sub', 'sub', { parentId: group.id as number });
    expect(sub.full_path).toBe('client-group/sub');
    expect((await asUser.Groups.allSubgroups(group.id as number)).map((g) => g.id)).toEqual([sub.id]);

    const project = await asUser.Projects.create({ name: 'Client Project', namespaceId: group.id as number });
    expect(project.path_with_namespace).toBe('client-group/client-project');
    expect((await asUser.Groups.allProjects(group.id as number)).map((p) => p.id)).toEqual([project.id]);

    const other = await admin.Users.create({
      email: 'o@example.com',
      username: 'other',
      name: 'Other',
      password: 'secret123',
    });
    const member = await asUser.GroupMembers.add(group.id as number, 30, { userId: other.id as number });
    expect(member.access_level).toBe(30);
    expect((await asUser.GroupMembers.all(group.id as number)).map((m) => m.username).sort()).toEqual(['gb', 'other']);
    await asUser.ProjectMembers.add(project.id as number, 20, { userId: other.id as number });

    const target = await admin.Groups.create('Share Target', 'share-target', { visibility: 'public' });
    await asUser.Projects.share(project.id as number, target.id as number, 30);
    expect((await asUser.Projects.show(project.id as number)).shared_with_groups).toHaveLength(1);
    await asUser.Projects.unshare(project.id as number, target.id as number);

    await asUser.Groups.edit(group.id as number, { description: 'edited' });
    expect((await asUser.Groups.show('client-group')).description).toBe('edited');
    await asUser.GroupMembers.remove(group.id as number, other.id as number);
    await asUser.Groups.remove(sub.id as number);
    await admin.UserImpersonationTokens.revoke(user.id as number, token.id as number);
    await expect(asUser.Users.showCurrentUser()).rejects.toThrow();
  });

  it('pages through every group by following Link rel="next"', async () => {
    for (let i = 0; i < 45; i += 1) await createGroup(t, { visibility: 'public' });
    const api = new Gitlab({ host, token: ROOT_TOKEN });
    const all = await api.Groups.all({ perPage: 20 });
    expect(all).toHaveLength(45);
    expect(new Set(all.map((g) => g.id)).size).toBe(45);
  });
});
