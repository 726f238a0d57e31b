import { Gitlab } from '@gitbeaker/rest';
import { addGroupMember, createGroup, createProject, createUser, shareProject } from '../support/factories';
import { ROOT_TOKEN } from '../support/test-app';
import { useServedTestApp } from '../support/served-app';

/** gitbeaker's methods for routes GitLab added after 10.3 (docs/client-routes.md), over real HTTP. */

const served = useServedTestApp({ resetEach: true });

describe('gitbeaker on later routes', () => {
  it('lists invited groups and starrers, shows and rotates a personal access token, resets the registration token', async () => {
    const fan = await createUser(served.t, { username: 'fan' });
    const group = await createGroup(served.t, { path: 'home', visibility: 'public' });
    const project = await createProject(served.t, { namespace: group, visibility: 'public' });
    const partner = await createGroup(served.t, { path: 'partner', name: 'Partner', visibility: 'public' });
    const hidden = await createGroup(served.t, { path: 'hidden', name: 'Hidden', visibility: 'private' });
    await shareProject(served.t, project, partner, 30);
    await shareProject(served.t, project, hidden, 30);
    await addGroupMember(served.t, partner, fan, 40);

    const asFan = new Gitlab({ host: served.host, token: fan.token });
    await asFan.Projects.star(project.id);
    const invited = await asFan.Projects.allInvitedGroups(project.id);
    expect(invited.map((g) => g.full_path)).toEqual(['partner']);
    expect((await asFan.Projects.allInvitedGroups(project.id, { minAccessLevel: 50 } as never)).length).toBe(0);
    const admin = new Gitlab({ host: served.host, token: ROOT_TOKEN });
    expect((await admin.Projects.allInvitedGroups(project.id)).map((g) => g.full_path)).toEqual(['hidden', 'partner']);
    const starrers = await admin.Projects.allStarrers(project.id);
    expect(starrers.map((s) => (s.user as { username: string }).username)).toEqual(['fan']);
    expect(typeof starrers[0].starred_since).toBe('string');

    const pat = await admin.Users.createPersonalAccessToken(fan.id, 'cli', ['api']);
    const asPat = new Gitlab({ host: served.host, token: pat.token as string });
    const self = await asPat.PersonalAccessTokens.show();
    expect([self.id, self.name]).toEqual([pat.id, 'cli']);
    const rotated = await admin.PersonalAccessTokens.rotate(pat.id as number);
    expect(rotated.name).toBe('cli');
    await expect(asPat.Users.showCurrentUser()).rejects.toThrow();
    expect(
      (await new Gitlab({ host: served.host, token: rotated.token as string }).Users.showCurrentUser()).username,
    ).toBe('fan');

    // gitbeaker sends the current token along (GitLab ignores it).
    const current = (await admin.ApplicationSettings.show()).runners_registration_token as string;
    const reset = (await admin.Runners.resetRegistrationToken({ token: current })) as unknown as { token: string };
    expect(reset.token).not.toBe(current);
    expect(reset.token).toBe((await admin.ApplicationSettings.show()).runners_registration_token);
  });
});
