import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gitlab } from '@gitbeaker/rest';
import { addGroupMember, createGroup, createProject, createUser, shareProject } from '../support/factories';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/** gitbeaker's methods for routes GitLab added after 10.3 (docs/client-routes.md), over real HTTP. */
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

describe('gitbeaker on later routes', () => {
  it('lists invited groups and starrers, shows and rotates its own personal access token', async () => {
    const fan = await createUser(t, { username: 'fan' });
    const group = await createGroup(t, { path: 'home', visibility: 'public' });
    const project = await createProject(t, { namespace: group, visibility: 'public' });
    const partner = await createGroup(t, { path: 'partner', name: 'Partner', visibility: 'public' });
    const hidden = await createGroup(t, { path: 'hidden', name: 'Hidden', visibility: 'private' });
    await shareProject(t, project, partner, 30);
    await shareProject(t, project, hidden, 30);
    await addGroupMember(t, partner, fan, 40);

    const asFan = new Gitlab({ host, token: fan.token });
    await asFan.Projects.star(project.id);
    const invited = await asFan.Projects.allInvitedGroups(project.id);
    expect(invited.map((g) => g.full_path)).toEqual(['partner']);
    expect((await asFan.Projects.allInvitedGroups(project.id, { minAccessLevel: 50 } as never)).length).toBe(0);
    const admin = new Gitlab({ host, token: ROOT_TOKEN });
    expect((await admin.Projects.allInvitedGroups(project.id)).map((g) => g.full_path)).toEqual(['hidden', 'partner']);
    const starrers = await admin.Projects.allStarrers(project.id);
    expect(starrers.map((s) => (s.user as { username: string }).username)).toEqual(['fan']);
    expect(typeof starrers[0].starred_since).toBe('string');

    const pat = await admin.Users.createPersonalAccessToken(fan.id, 'cli', ['api']);
    const asPat = new Gitlab({ host, token: pat.token as string });
    const self = await asPat.PersonalAccessTokens.show();
    expect([self.id, self.name]).toEqual([pat.id, 'cli']);
    const rotated = await admin.PersonalAccessTokens.rotate(pat.id as number);
    expect(rotated.name).toBe('cli');
    await expect(asPat.Users.showCurrentUser()).rejects.toThrow();
    expect((await new Gitlab({ host, token: rotated.token as string }).Users.showCurrentUser()).username).toBe('fan');
  });
});
