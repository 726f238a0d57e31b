import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gitlab } from '@gitbeaker/rest';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  queryOne,
} from '../support/factories';
import { ROOT_TOKEN } from '../support/test-app';
import { useServedTestApp } from '../support/served-app';

/**
 * gitbeaker's methods for later GitLab's users, avatar, user runners, environment clean-up and
 * system hook test routes (docs/client-routes.md), over real HTTP; hooks deliver to loopback only.
 */
const served = useServedTestApp({ resetEach: true });
const DAY = 86_400_000;

describe('gitbeaker on later users, runners, environments and system hooks routes', () => {
  it('counts associations, reads and edits preferences, looks up avatars', async () => {
    const ann = await createUser(served.t, { username: 'ann' });
    const group = await createGroup(served.t);
    const project = await createProject(served.t, { namespace: group });
    await addGroupMember(served.t, group, ann, 30);
    await addProjectMember(served.t, project, ann, 40);
    const asAnn = new Gitlab({ host: served.host, token: ann.token });

    expect(await asAnn.Users.showAssociationsCount(ann.id)).toEqual({
      groups_count: 1,
      projects_count: 1,
      issues_count: 0,
      merge_requests_count: 0,
    });
    const other = await createUser(served.t);
    await expect(
      new Gitlab({ host: served.host, token: other.token }).Users.showAssociationsCount(ann.id),
    ).rejects.toThrow(/Forbidden/);

    expect(await asAnn.Users.showCurrentUserPreferences()).toMatchObject({
      user_id: ann.id,
      view_diffs_file_by_file: false,
      show_whitespace_in_diffs: true,
    });
    const edited = await asAnn.Users.editCurrentUserPreferences(true, false);
    expect(edited).toMatchObject({ user_id: ann.id, view_diffs_file_by_file: true, show_whitespace_in_diffs: false });
    expect(await asAnn.Users.showCurrentUserPreferences()).toEqual(edited);

    const hash = crypto.createHash('md5').update('nobody@example.com').digest('hex');
    expect(await asAnn.Avatar.show('nobody@example.com', { size: 50 } as never)).toEqual({
      avatar_url: `https://www.gravatar.com/avatar/${hash}?s=100&d=identicon`,
    });
  });

  it('creates instance and project runners with Users.createCIRunner', async () => {
    const maintainer = await createUser(served.t);
    const group = await createGroup(served.t);
    const project = await createProject(served.t, { namespace: group });
    await addProjectMember(served.t, project, maintainer, 40);
    const admin = new Gitlab({ host: served.host, token: ROOT_TOKEN });

    const shared = await admin.Users.createCIRunner('instance_type', { description: 'fleet', tagList: ['docker'] });
    expect(Object.keys(shared).sort()).toEqual(['id', 'token', 'token_expires_at']);
    expect((await admin.Runners.show(shared.id as number)).is_shared).toBe(true);

    const asMaintainer = new Gitlab({ host: served.host, token: maintainer.token });
    const own = await asMaintainer.Users.createCIRunner('project_type', { projectId: project.id, paused: true });
    const listed = await asMaintainer.Runners.all({ projectId: project.id });
    expect(listed.map((r) => r.id)).toContain(own.id);
    await expect(asMaintainer.Users.createCIRunner('instance_type')).rejects.toThrow(/Forbidden/);
  });

  it('stops stale environments and removes review apps', async () => {
    const group = await createGroup(served.t);
    const project = await createProject(served.t, { namespace: group });
    const insert = (name: string, state: string, daysAgo: number) =>
      queryOne<{ id: number }>(
        served.t,
        `insert into environments (project_id, name, slug, state, created_at, updated_at) values (?, ?, ?, ?, ?, ?) returning id`,
        [
          project.id,
          name,
          name.replace('/', '-'),
          state,
          new Date(Date.now() - daysAgo * DAY),
          new Date(Date.now() - daysAgo * DAY),
        ],
      );
    const stale = (await insert('production', 'available', 60))!.id;
    const review = (await insert('review/feature', 'stopped', 45))!.id;
    const admin = new Gitlab({ host: served.host, token: ROOT_TOKEN });

    const stopped = await admin.Environments.stopStale(project.id, new Date(Date.now() - 30 * DAY).toISOString());
    expect(stopped).toEqual({ message: 'Successfully scheduled stale environments to stop' });
    expect((await admin.Environments.show(project.id, stale)).state).toBe('stopped');

    const dry = await admin.Environments.removeReviewApps(project.id);
    expect((dry as { scheduled_entries: { id: number }[] }).scheduled_entries.map((e) => e.id)).toEqual([review]);
    expect((await admin.Environments.show(project.id, review)).id).toBe(review);
    const real = await admin.Environments.removeReviewApps(project.id, { dryRun: false });
    expect((real as { scheduled_entries: { id: number }[] }).scheduled_entries.map((e) => e.id)).toEqual([review]);
    await expect(admin.Environments.show(project.id, review)).rejects.toThrow(/Not Found|Not found/);
  });

  it('tests a system hook with SystemHooks.test and SystemHooks.show (both POST)', async () => {
    const got: Record<string, unknown>[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const admin = new Gitlab({ host: served.host, token: ROOT_TOKEN });
      await admin.ApplicationSettings.edit({ allowLocalRequestsFromSystemHooks: true } as never);
      const hook = await admin.SystemHooks.create(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
      const tested = await admin.SystemHooks.test(hook.id as number);
      expect(tested).toMatchObject({ event_name: 'project_create', name: 'Ruby', path: 'ruby' });
      await admin.SystemHooks.show(hook.id as number);
      expect(got.map((g) => g.event_name)).toEqual(['project_create', 'project_create']);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
