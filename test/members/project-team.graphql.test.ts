import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  shareProject,
} from '../support/factories';
import { registeredMigration } from '../support/migrations';
import { captureSystemEvents } from '../support/system-events';
import { sqlOf } from '../upgrade/migration-statements';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * A project's users in the public view (docs/graphql.md): GitLab's
 * `Project.projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS]) { nodes { user } }`, the users
 * REST's GET /projects/:id/users lists (the root `projectUsers` runs in the internal view only).
 */
const t = useTestApp();

/** The backfill as the registry lists it (the projects module's door), not its file. */
const OwnerMemberships = registeredMigration('Migration20261230090000_personal_project_owner_memberships');

type Node = { user: { username: string }; accessLevel: { integerValue: number }; project: { id: string } | null };

const TEAM = (path: string, args = '') =>
  `{ project(fullPath: "${path}") { projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS]${args}) {
      count nodes { user { username } accessLevel { integerValue } project { id } } } } }`;

async function team(token: string | undefined, path: string, args = '') {
  const res = await api(t, token).graphql(TEAM(path, args));
  expect(res.body.errors).toBeUndefined();
  return res.body.data.project.projectMembers as { count: number; nodes: Node[] };
}

const usernames = (nodes: { user: { username: string } }[]) => nodes.map((n) => n.user.username).sort();
const restUsers = async (token: string | undefined, id: number, query = '') =>
  ((await api(t, token).get(`/api/v4/projects/${id}/users${query}`).expect(200)).body as { username: string }[])
    .map((u) => u.username)
    .sort();

describe('Project.projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS]) as GET /projects/:id/users', () => {
  it('lists each user of the project once, at their highest level, as REST lists them', async () => {
    const parent = await createGroup(t, { path: 'top', visibility: 'public' });
    const g = await createGroup(t, { path: 'team', parent, visibility: 'public' });
    const p = await createProject(t, { namespace: g, path: 'app', visibility: 'public' });
    const invited = await createGroup(t, { path: 'guests', visibility: 'public' });
    const direct = await createUser(t, { username: 'direct_dev' });
    const inParent = await createUser(t, { username: 'parent_owner' });
    const viaShare = await createUser(t, { username: 'shared_member' });
    const everywhere = await createUser(t, { username: 'everywhere' });
    await createUser(t, { username: 'stranger' });
    await addProjectMember(t, p, direct, 30);
    await addGroupMember(t, g, direct, 10); // lower than the direct membership: listed once, at 30
    await addGroupMember(t, parent, inParent, 50);
    await addGroupMember(t, invited, viaShare, 40); // capped by the share's 20
    await shareProject(t, p, invited, 20);
    await addProjectMember(t, p, everywhere, 20);
    await addGroupMember(t, g, everywhere, 40); // the group's 40 beats the project's 20
    await addGroupMember(t, invited, everywhere, 50);

    const list = await team(direct.token, 'top/team/app');
    expect(list.count).toBe(4);
    expect(usernames(list.nodes)).toEqual(await restUsers(direct.token, p.id));
    const levels = Object.fromEntries(list.nodes.map((n) => [n.user.username, n.accessLevel.integerValue]));
    expect(levels).toEqual({ direct_dev: 30, parent_owner: 50, shared_member: 20, everywhere: 40 });
    // The entry of the direct member is the project's membership; the others come from groups.
    expect(list.nodes.find((n) => n.user.username === 'direct_dev')!.project).toEqual({
      id: `gid://gitlab/Project/${p.id}`,
    });
    expect(list.nodes.find((n) => n.user.username === 'everywhere')!.project).toBeNull();
    // search: REST's `search` over the same users (name or username).
    const found = await team(direct.token, 'top/team/app', ', search: "member"');
    expect(usernames(found.nodes)).toEqual(await restUsers(direct.token, p.id, '?search=member'));
    expect(usernames(found.nodes)).toEqual(['shared_member']);
    // Anonymous callers of the public project: the same list.
    expect(usernames((await team(undefined, 'top/team/app')).nodes)).toEqual(await restUsers(undefined, p.id));
  });

  it("shows a stranger an invited group's members only when the stranger may see that group (GitLab's MembersFinder)", async () => {
    const g = await createGroup(t, { path: 'open', visibility: 'public' });
    const p = await createProject(t, { namespace: g, path: 'app', visibility: 'public' });
    const secret = await createGroup(t, { path: 'secret', visibility: 'private' });
    const member = await createUser(t, { username: 'member' });
    const hidden = await createUser(t, { username: 'hidden' });
    const stranger = await createUser(t, { username: 'stranger' });
    await addProjectMember(t, p, member, 30);
    await addGroupMember(t, secret, hidden, 30);
    await shareProject(t, p, secret, 30);
    // A project member sees every invited group's members, as REST's team.
    expect(usernames((await team(member.token, 'open/app')).nodes)).toEqual(['hidden', 'member']);
    expect(await restUsers(member.token, p.id)).toEqual(['hidden', 'member']);
    // REST's users list is the project's authorized users for anyone who sees the project; GitLab's member
    // list leaves out the members of a private invited group for a caller who may not see that group.
    expect(usernames((await team(stranger.token, 'open/app')).nodes)).toEqual(['member']);
    expect(usernames((await team(undefined, 'open/app')).nodes)).toEqual(['member']);
    expect(await restUsers(stranger.token, p.id)).toEqual(['hidden', 'member']);
    // A project the caller may not see: null, as GET /projects/:id/users answers 404.
    const closed = await createProject(t, { namespace: g, path: 'closed', visibility: 'private' });
    expect((await api(t, stranger.token).graphql(TEAM('open/closed'))).body).toEqual({ data: { project: null } });
    expect((await api(t, stranger.token).get(`/api/v4/projects/${closed.id}/users`)).status).toBe(404);
  });
});

describe("a personal project's owner is a direct member", () => {
  const DIRECT = (path: string) =>
    `{ project(fullPath: "${path}") { projectMembers(relations: [DIRECT]) { nodes { user { username } accessLevel { integerValue } } } } }`;
  const directOf = async (token: string, path: string) => {
    const res = await api(t, token).graphql(DIRECT(path));
    expect(res.body.errors).toBeUndefined();
    return res.body.data.project.projectMembers.nodes as {
      user: { username: string };
      accessLevel: { integerValue: number };
    }[];
  };

  it('when the project is created in the personal namespace', async () => {
    const ann = await createUser(t, { username: 'ann' });
    const p = (await api(t, ann.token).post('/api/v4/projects').send({ name: 'tool' }).expect(201)).body;
    expect(await directOf(ann.token, 'ann/tool')).toEqual([
      { user: { username: 'ann' }, accessLevel: { integerValue: 40 } },
    ]);
    expect(await restUsers(ann.token, p.id)).toEqual(['ann']);
  });

  it("when the project is transferred into the personal namespace (GitLab's ensure_personal_project_owner_membership), with user_add_to_team", async () => {
    const bob = await createUser(t, { username: 'bob' });
    const g = await createGroup(t, { path: 'g' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    const events = await captureSystemEvents(t);
    await api(t, ROOT_TOKEN).put(`/api/v4/projects/${p.id}/transfer`).send({ namespace: bob.namespaceId }).expect(200);
    expect(await directOf(bob.token, 'bob/app')).toEqual([
      { user: { username: 'bob' }, accessLevel: { integerValue: 40 } },
    ]);
    expect(usernames(await directOf(bob.token, 'bob/app'))).toEqual(await restUsers(bob.token, p.id));
    expect((await events()).map((e) => e.event_name)).toEqual(['project_transfer', 'user_add_to_team']);
    const members = (await api(t, bob.token).get(`/api/v4/projects/${p.id}/members`).expect(200)).body;
    expect(members.map((m: { username: string; access_level: number }) => [m.username, m.access_level])).toEqual([
      ['bob', 40],
    ]);
  });

  it('when the owner already was a member below Master: raised, without a second membership or hook', async () => {
    const bob = await createUser(t, { username: 'bob' });
    const g = await createGroup(t, { path: 'g' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    await addProjectMember(t, p, bob, 10);
    const events = await captureSystemEvents(t);
    await api(t, ROOT_TOKEN).put(`/api/v4/projects/${p.id}/transfer`).send({ namespace: 'bob' }).expect(200);
    expect(await directOf(bob.token, 'bob/app')).toEqual([
      { user: { username: 'bob' }, accessLevel: { integerValue: 40 } },
    ]);
    expect((await events()).map((e) => e.event_name)).toEqual(['project_transfer']);
  });

  it('when the project was transferred before transfers added it: from the migration, once', async () => {
    const cy = await createUser(t, { username: 'cy' });
    // A personal project without its owner's membership, as a transfer into it left one before.
    const p = await createProject(t, { namespace: { id: cy.namespaceId }, path: 'old' });
    const g = await createGroup(t, { path: 'g' });
    await createProject(t, { namespace: g, path: 'grouped' });
    expect(await directOf(cy.token, 'cy/old')).toEqual([]);
    for (let i = 0; i < 2; i += 1)
      for (const statement of await sqlOf(OwnerMemberships)) await t.orm.em.getConnection().execute(statement);
    expect(await directOf(cy.token, 'cy/old')).toEqual([
      { user: { username: 'cy' }, accessLevel: { integerValue: 40 } },
    ]);
    expect(await restUsers(cy.token, p.id)).toEqual(['cy']);
    expect(await directOf(ROOT_TOKEN, 'g/grouped')).toEqual([]);
  });

  it("stays one: nobody, administrators included, removes or changes the owner's membership (GitLab's ProjectMemberPolicy target_is_owner)", async () => {
    const ann = await createUser(t, { username: 'ann' });
    const dev = await createUser(t, { username: 'dev' });
    const p = (await api(t, ann.token).post('/api/v4/projects').send({ name: 'tool' }).expect(201)).body;
    await addProjectMember(t, p, dev, 30);
    for (const token of [ann.token, ROOT_TOKEN]) {
      expect((await api(t, token).delete(`/api/v4/projects/${p.id}/members/${ann.id}`)).body).toEqual({
        message: '403 Forbidden',
      });
      expect(
        (await api(t, token).put(`/api/v4/projects/${p.id}/members/${ann.id}`).send({ access_level: 30 })).body,
      ).toEqual({ message: '403 Forbidden' });
    }
    // Other members are managed and leave as before.
    await api(t, ann.token).put(`/api/v4/projects/${p.id}/members/${dev.id}`).send({ access_level: 20 }).expect(200);
    await api(t, dev.token).delete(`/api/v4/projects/${p.id}/members/${dev.id}`).expect(204);
    expect(await directOf(ann.token, 'ann/tool')).toEqual([
      { user: { username: 'ann' }, accessLevel: { integerValue: 40 } },
    ]);
  });
});
