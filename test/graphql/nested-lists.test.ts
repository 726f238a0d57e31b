import { GraphQLSchema } from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { MODULES } from '../../src/modules';
import { createJob, createRunner } from '../runners/runner-factories';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  shareProject,
} from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

const sql = (text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params);

/** The lists REST's routes run as root fields are, in the public view, fields of their object (docs/graphql.md). */
describe('REST-shaped root lists are internal', () => {
  // Each with where GraphQL clients read the same data.
  const MOVED = [
    'groupMembers', // Group.groupMembers(relations: [DIRECT])
    'groupMembersAll', // Group.groupMembers
    'groupMember', // node(id) of a GroupMember
    'groupMemberAll',
    'projectMembers', // Project.projectMembers(relations: [DIRECT])
    'projectMembersAll', // Project.projectMembers
    'projectMember', // node(id) of a ProjectMember
    'projectMemberAll',
    'groupProjects', // Group.projects, Group.sharedProjects
    'groupSharedProjects', // Group.sharedProjects
    'groupSubgroups', // Group.subgroups
    'groupDescendantGroups', // Group.descendantGroups
    'groupRunners', // Group.runners
    'projectRunners', // Project.runners
    'runnerJobs', // CiRunner.jobs
    'projectEnvironments', // Project.environments
    'environment', // node(id) of an Environment
    'projectJobList', // Project.jobs
    'pipelineJobList', // Pipeline.jobs
    'projectJob', // node(id) of a CiJob
    'userStarredProjects', // User.starredProjects
    'userStatus', // User.status
    'currentUserStatus', // currentUser.status
    'currentUserPreferences', // currentUser.preferences
    'groupCustomAttributes', // Group.customAttributes
    'groupCustomAttribute',
    'projectCustomAttributes', // Project.customAttributes
    'projectCustomAttribute',
    'userCustomAttributes', // User.customAttributes
    'userCustomAttribute',
    'userSshKeys', // User.sshKeys
    'userSshKey', // node(id) of an SshKey
    'currentUserSshKeys', // currentUser.sshKeys
    'currentUserSshKey',
    'userGpgKeys', // User.gpgKeys
    'userGpgKey', // node(id) of a GpgKey
    'currentUserGpgKeys', // currentUser.gpgKeys
    'currentUserGpgKey',
    'userEmails', // User.emails
    'currentUserEmails', // currentUser.emails
    'currentUserEmail', // node(id) of an Email
    'groupAuditEvents', // Group.auditEvents
    'projectAuditEvents', // Project.auditEvents
    'groupAccessRequests', // Group.accessRequests
    'projectAccessRequests', // Project.accessRequests
    'userFollowers', // User.followers
    'userFollowing', // User.following
    'projectStarrers', // Project.starrers
    'projectPagesDomains', // Project.pagesDomains
    'pagesDomain', // node(id) of a PagesDomain
    'impersonationTokens', // User.impersonationTokens
    'impersonationToken', // node(id) of an ImpersonationToken
    'projectForks', // Project.visibleForks
    'projectTransferLocations', // currentUser.groups(permissionScope: TRANSFER_PROJECTS)
    'groupAuditEvent', // node(id) of an AuditEvent (group Owners)
    'projectAuditEvent', // node(id) of an AuditEvent (project Maintainers)
    'groupTransferLocations', // Group.transferTargets
    'projectShareLocations', // Project.shareTargets
    'projectGroups', // Project.groups
    'projectInvitedGroups', // Project.invitedGroups
    'userAssociationsCount', // User.groupCount, User.projectCount
    'projectUsers', // Project.projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS]) { nodes { user } }, Project.autocompleteUsers
    'userMemberships', // User.groupMemberships, User.projectMemberships
    'userProjects', // User.personalProjects
  ];

  it('are in the internal view (REST runs them) and not in the public one', async () => {
    const internal: GraphQLSchema = await buildAppSchema(MODULES);
    const internalFields = internal.getQueryType()!.getFields();
    const publicFields = publicView(internal).getQueryType()!.getFields();
    expect(MOVED.filter((name) => !internalFields[name])).toEqual([]);
    expect(MOVED.filter((name) => publicFields[name])).toEqual([]);
  });
});

describe('Group.sharedProjects', () => {
  async function world() {
    const owner = await createUser(t, { username: 'owner' });
    const member = await createUser(t, { username: 'member' });
    const stranger = await createUser(t, { username: 'stranger' });
    const team = await createGroup(t, { path: 'team', visibility: 'public' });
    const secret = await createGroup(t, { path: 'secret', visibility: 'private' });
    await addGroupMember(t, team, member, 30);
    await addGroupMember(t, secret, member, 30);
    const home = await createGroup(t, { path: 'home', visibility: 'public' });
    await addGroupMember(t, home, owner, 50);
    const open = await createProject(t, { namespace: home, path: 'open', visibility: 'public' });
    const closed = await createProject(t, { namespace: home, path: 'closed', visibility: 'private' });
    const archived = await createProject(t, { namespace: home, path: 'old', visibility: 'public', archived: true });
    for (const p of [open, closed, archived]) await shareProject(t, p, team, 30);
    await shareProject(t, open, secret, 20);
    return { owner, member, stranger, team, secret, open, closed, archived };
  }

  const LIST = (path: string, args = '') =>
    `{ group(fullPath: "${path}") { sharedProjects${args} { count nodes { fullPath } pageInfo { hasNextPage endCursor } } } }`;

  it('lists the projects shared with the group that the caller may see, as GET /groups/:id/projects/shared', async () => {
    const w = await world();
    const mine = await api(t, w.member.token).graphql(LIST('team'));
    expect(mine.body.errors).toBeUndefined();
    // The share gives the group's members the private project too; by id, newest first (GitLab's default).
    expect(mine.body.data.group.sharedProjects).toEqual({
      count: 3,
      nodes: [{ fullPath: 'home/old' }, { fullPath: 'home/closed' }, { fullPath: 'home/open' }],
      pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
    });
    const rest = await api(t, w.member.token).get(`/api/v4/groups/${w.team.id}/projects/shared?order_by=id&sort=desc`);
    expect(rest.status).toBe(200);
    expect(rest.body.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual([
      'home/old',
      'home/closed',
      'home/open',
    ]);
    // Someone who sees the public group but not the private project: the public ones only.
    const theirs = await api(t, w.stranger.token).graphql(LIST('team'));
    expect(theirs.body.data.group.sharedProjects.nodes).toEqual([{ fullPath: 'home/old' }, { fullPath: 'home/open' }]);
    // GitLab's filters (active: not archived) and cursor pages.
    const active = await api(t, w.member.token).graphql(LIST('team', '(active: true, search: "o", sort: "id_asc")'));
    expect(active.body.data.group.sharedProjects.nodes).toEqual([
      { fullPath: 'home/open' },
      { fullPath: 'home/closed' },
    ]);
    const first = (await api(t, w.member.token).graphql(LIST('team', '(first: 2)'))).body.data.group.sharedProjects;
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = await api(t, w.member.token).graphql(LIST('team', `(first: 2, after: "${first.pageInfo.endCursor}")`));
    expect(next.body.data.group.sharedProjects.nodes).toEqual([{ fullPath: 'home/open' }]);
  });

  it('is null with its private group for a stranger, and costs the same statements for two groups and for many', async () => {
    const w = await world();
    expect((await api(t, w.stranger.token).graphql(LIST('secret'))).body).toEqual({ data: { group: null } });
    expect((await api(t, w.member.token).graphql(LIST('secret'))).body.data.group.sharedProjects.count).toBe(1);
    const q = (n: number) =>
      `{ groups(allAvailable: true, first: ${n}) { nodes { fullPath sharedProjects(first: 5) { count nodes { fullPath } } } } }`;
    await api(t, ROOT_TOKEN).graphql(q(2)); // warm per-process caches before counting
    const two = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q(2)));
    const all = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q(20)));
    expect(all.result.body.errors).toBeUndefined();
    const counts = Object.fromEntries(
      all.result.body.data.groups.nodes.map((g: { fullPath: string; sharedProjects: { count: number } }) => [
        g.fullPath,
        g.sharedProjects.count,
      ]),
    );
    expect(counts).toEqual({ home: 0, secret: 1, team: 3 });
    // The two groups already list shared projects, so the larger page adds no statement (it may save the
    // projects' namespace lookup when their group is on the page too).
    const shown = two.result.body.data.groups.nodes.map((g: { sharedProjects: { count: number } }) => g.sharedProjects);
    expect(shown.some((list: { count: number }) => list.count > 0)).toBe(true);
    expect(all.count).toBeLessThanOrEqual(two.count);
  });
});

describe('Pipeline.jobs', () => {
  async function world() {
    const g = await createGroup(t, { path: 'ci', visibility: 'public' });
    const p = await createProject(t, { namespace: g, path: 'app', visibility: 'private' });
    const reporter = await createUser(t);
    const guest = await createUser(t);
    const stranger = await createUser(t);
    await addProjectMember(t, p, reporter, 20);
    await addProjectMember(t, p, guest, 10);
    const runner = await createRunner(t, { shared: true });
    const build = await createJob(t, { runner, project: p, name: 'build' });
    const test = await createJob(t, { runner, project: p, name: 'test', status: 'failed' });
    const deploy = await createJob(t, { runner, project: p, name: 'deploy', status: 'manual' });
    const other = await createJob(t, { runner, project: p, name: 'other pipeline' });
    // Only Reporters and above read the jobs (GitLab's read_build when the jobs are not public).
    await sql('update projects set public_jobs = false where id = ?', [p.id]);
    // One pipeline of three jobs, and another of one.
    await sql('update ci_builds set pipeline_id = ? where id = any(?::int[])', [
      build.pipelineId,
      `{${test.id},${deploy.id}}`,
    ]);
    return { p, reporter, guest, stranger, build, test, deploy, other };
  }

  const JOBS = (pipelineId: number, args = '') =>
    `{ node(id: "gid://gitlab/Ci::Pipeline/${pipelineId}") { ... on Pipeline { jobs${args} { count nodes { name status } } } } }`;

  it("lists the pipeline's jobs newest first, as GET /projects/:id/pipelines/:pipeline_id/jobs, and filters by statuses", async () => {
    const w = await world();
    const gql = await api(t, w.reporter.token).graphql(JOBS(w.build.pipelineId));
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.node.jobs).toEqual({
      count: 3,
      nodes: [
        { name: 'deploy', status: 'MANUAL' },
        { name: 'test', status: 'FAILED' },
        { name: 'build', status: 'SUCCESS' },
      ],
    });
    const rest = await api(t, w.reporter.token).get(`/api/v4/projects/${w.p.id}/pipelines/${w.build.pipelineId}/jobs`);
    expect(rest.body.map((j: { name: string }) => j.name)).toEqual(['deploy', 'test', 'build']);
    const failed = await api(t, w.reporter.token).graphql(JOBS(w.build.pipelineId, '(statuses: [FAILED, MANUAL])'));
    expect(failed.body.data.node.jobs.nodes.map((j: { name: string }) => j.name)).toEqual(['deploy', 'test']);
    const other = await api(t, w.reporter.token).graphql(JOBS(w.other.pipelineId));
    expect(other.body.data.node.jobs.nodes).toEqual([{ name: 'other pipeline', status: 'SUCCESS' }]);
  });

  it("follows Project.jobs' rule: null below Reporter on a project whose jobs are not public, nothing for a stranger", async () => {
    const w = await world();
    // The guest sees the pipeline (with its project) but not its jobs.
    const guest = await api(t, w.guest.token).graphql(JOBS(w.build.pipelineId));
    expect(guest.body).toEqual({ data: { node: { jobs: null } } });
    expect((await api(t, w.stranger.token).graphql(JOBS(w.build.pipelineId))).body).toEqual({ data: { node: null } });
  });

  it('is batched: the jobs of every pipeline of a job list cost the same statements for 1 job and for 4', async () => {
    const w = await world();
    const q = (n: number) =>
      `{ project(fullPath: "ci/app") { jobs(first: ${n}) { nodes { pipeline { jobs(first: 5) { count nodes { name } } } } } } }`;
    await api(t, w.reporter.token).graphql(q(1));
    const one = await t.countQueries(() => api(t, w.reporter.token).graphql(q(1)));
    const four = await t.countQueries(() => api(t, w.reporter.token).graphql(q(4)));
    expect(four.result.body.errors).toBeUndefined();
    expect(
      four.result.body.data.project.jobs.nodes.map(
        (j: { pipeline: { jobs: { count: number } } }) => j.pipeline.jobs.count,
      ),
    ).toEqual([1, 3, 3, 3]);
    expect(four.count).toBe(one.count);
  });
});

describe('Group.auditEvents and Project.auditEvents', () => {
  async function world() {
    const owner = await createUser(t, { username: 'owner' });
    const maintainer = await createUser(t, { username: 'maintainer' });
    const developer = await createUser(t, { username: 'developer' });
    const stranger = await createUser(t, { username: 'stranger' });
    const g = await createGroup(t, { path: 'audited', visibility: 'private' });
    await addGroupMember(t, g, owner, 50);
    await addGroupMember(t, g, maintainer, 40);
    await addGroupMember(t, g, developer, 30);
    const p = await createProject(t, { namespace: g, path: 'app', visibility: 'private' });
    // Changes through REST write the events.
    for (const description of ['one', 'two'])
      await api(t, owner.token).put(`/api/v4/groups/${g.id}`).send({ description }).expect(200);
    await api(t, maintainer.token).put(`/api/v4/projects/${p.id}`).send({ description: 'three' }).expect(200);
    return { owner, maintainer, developer, stranger, g, p };
  }

  const Q = `{ group(fullPath: "audited") { auditEvents { count nodes { id: databaseId entityType entityId } }
    projects { nodes { auditEvents(first: 5) { count nodes { id: databaseId entityType entityId } } } } } }`;
  // An audit event's databaseId is a 64-bit integer, as a string.
  const ids = (list: { nodes: { id: string }[] }) => list.nodes.map((n) => Number(n.id));

  it("list the entity's own events newest first, as the REST routes, for Owners (group) and Maintainers (project)", async () => {
    const w = await world();
    const res = await api(t, w.owner.token).graphql(Q);
    expect(res.body.errors).toBeUndefined();
    const group = res.body.data.group;
    const restGroup = await api(t, w.owner.token).get(`/api/v4/groups/${w.g.id}/audit_events`).expect(200);
    expect(group.auditEvents.count).toBe(restGroup.body.length);
    expect(group.auditEvents.count).toBeGreaterThanOrEqual(2);
    expect(ids(group.auditEvents)).toEqual(restGroup.body.map((e: { id: number }) => e.id));
    expect(group.auditEvents.nodes.every((e: { entityType: string; entityId: number }) => e.entityId === w.g.id)).toBe(
      true,
    );
    const [project] = group.projects.nodes;
    const restProject = await api(t, w.owner.token).get(`/api/v4/projects/${w.p.id}/audit_events`).expect(200);
    expect(project.auditEvents.count).toBeGreaterThanOrEqual(1);
    expect(ids(project.auditEvents)).toEqual(restProject.body.map((e: { id: number }) => e.id));
    // createdAfter: none after now.
    const later = await api(t, w.owner.token).graphql(
      `{ group(fullPath: "audited") { auditEvents(createdAfter: "2999-01-01T00:00:00Z") { count } } }`,
    );
    expect(later.body.data.group.auditEvents.count).toBe(0);
  });

  it('are null for those the REST routes refuse, and the group with them for a stranger', async () => {
    const w = await world();
    const maintainer = (await api(t, w.maintainer.token).graphql(Q)).body.data.group;
    expect(maintainer.auditEvents).toBeNull();
    expect(maintainer.projects.nodes[0].auditEvents.count).toBeGreaterThanOrEqual(1);
    const developer = (await api(t, w.developer.token).graphql(Q)).body.data.group;
    expect(developer.auditEvents).toBeNull();
    expect(developer.projects.nodes[0].auditEvents).toBeNull();
    expect((await api(t, w.developer.token).get(`/api/v4/projects/${w.p.id}/audit_events`)).status).toBe(403);
    expect((await api(t, w.stranger.token).graphql(Q)).body).toEqual({ data: { group: null } });
  });

  it('cost the same statements for a page of 2 projects and of 6', async () => {
    const w = await world();
    for (let i = 0; i < 5; i += 1) await createProject(t, { namespace: w.g, path: `more${i}`, visibility: 'private' });
    const q = (n: number) =>
      `{ group(fullPath: "audited") { projects(first: ${n}) { nodes { auditEvents(first: 2) { count nodes { id } } } } } }`;
    await api(t, w.owner.token).graphql(q(2));
    const two = await t.countQueries(() => api(t, w.owner.token).graphql(q(2)));
    const six = await t.countQueries(() => api(t, w.owner.token).graphql(q(6)));
    expect(six.result.body.errors).toBeUndefined();
    expect(six.result.body.data.group.projects.nodes).toHaveLength(6);
    expect(six.count).toBe(two.count);
  });
});

describe('Group.accessRequests and Project.accessRequests', () => {
  it("list the requests in request order for the group's Owners and the project's Maintainers, in one statement pair for a page of groups", async () => {
    const owner = await createUser(t, { username: 'owner' });
    const developer = await createUser(t, { username: 'developer' });
    const askers = [await createUser(t, { username: 'ask-a' }), await createUser(t, { username: 'ask-b' })];
    const groups = [];
    for (let i = 0; i < 4; i += 1) {
      const g = await createGroup(t, { path: `door${i}`, visibility: 'public' });
      await addGroupMember(t, g, owner, 50);
      await addGroupMember(t, g, developer, 30);
      await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}`).send({ request_access_enabled: true }).expect(200);
      for (const asker of askers.slice(0, (i % 2) + 1))
        await api(t, asker.token).post(`/api/v4/groups/${g.id}/access_requests`).expect(201);
      groups.push(g);
    }
    const p = await createProject(t, { namespace: groups[0], path: 'app', visibility: 'public' });
    await api(t, ROOT_TOKEN).put(`/api/v4/projects/${p.id}`).send({ request_access_enabled: true }).expect(200);
    await api(t, askers[1].token).post(`/api/v4/projects/${p.id}/access_requests`).expect(201);

    const q = (n: number) =>
      `{ groups(search: "door", first: ${n}) { nodes { fullPath accessRequests { count nodes { username } } } } }`;
    const mine = await api(t, owner.token).graphql(q(4));
    expect(mine.body.errors).toBeUndefined();
    const byGroup = Object.fromEntries(
      mine.body.data.groups.nodes.map((g: { fullPath: string; accessRequests: { nodes: { username: string }[] } }) => [
        g.fullPath,
        g.accessRequests.nodes.map((n) => n.username),
      ]),
    );
    expect(byGroup).toEqual({
      door0: ['ask-a'],
      door1: ['ask-a', 'ask-b'],
      door2: ['ask-a'],
      door3: ['ask-a', 'ask-b'],
    });
    const rest = await api(t, owner.token).get(`/api/v4/groups/${groups[1].id}/access_requests`).expect(200);
    expect(rest.body.map((r: { username: string }) => r.username)).toEqual(byGroup.door1);
    // A Developer may not manage the members: null, as REST's 403.
    const theirs = await api(t, developer.token).graphql(q(4));
    expect(theirs.body.data.groups.nodes.map((g: { accessRequests: unknown }) => g.accessRequests)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    const project = `{ project(fullPath: "door0/app") { accessRequests { count nodes { username } } } }`;
    // The group's Owner manages the project's members too; the Developer does not.
    expect((await api(t, owner.token).graphql(project)).body.data.project.accessRequests).toEqual({
      count: 1,
      nodes: [{ username: 'ask-b' }],
    });
    expect((await api(t, developer.token).graphql(project)).body.data.project.accessRequests).toBeNull();
    await api(t, owner.token).graphql(q(2));
    const two = await t.countQueries(() => api(t, owner.token).graphql(q(2)));
    const four = await t.countQueries(() => api(t, owner.token).graphql(q(4)));
    expect(four.count).toBe(two.count);
  });
});

describe('User.followers and User.following', () => {
  it('list as GET /users/:id/followers and /following do, latest first; null for anonymous callers; batched', async () => {
    const [ann, bob, cid] = [
      await createUser(t, { username: 'ann' }),
      await createUser(t, { username: 'bob' }),
      await createUser(t, { username: 'cid' }),
    ];
    await api(t, bob.token).post(`/api/v4/users/${ann.id}/follow`).expect(201);
    await api(t, cid.token).post(`/api/v4/users/${ann.id}/follow`).expect(201);
    await api(t, ann.token).post(`/api/v4/users/${cid.id}/follow`).expect(201);
    const usernames = (list: { nodes: { username: string }[] }) => list.nodes.map((n) => n.username);
    const q = `{ user(username: "ann") { followers { count nodes { username } } following { count nodes { username } } } }`;
    const res = await api(t, bob.token).graphql(q);
    expect(res.body.errors).toBeUndefined();
    const rest = async (path: string) =>
      (await api(t, bob.token).get(`/api/v4/users/${ann.id}/${path}`).expect(200)).body.map(
        (u: { username: string }) => u.username,
      );
    expect(usernames(res.body.data.user.followers)).toEqual(await rest('followers'));
    expect(res.body.data.user.followers.count).toBe(2);
    expect(usernames(res.body.data.user.following)).toEqual(['cid']);
    expect(await rest('following')).toEqual(['cid']);
    // Anonymous callers see the user but not the lists (REST answers them 403).
    expect((await api(t).graphql(q)).body).toEqual({ data: { user: { followers: null, following: null } } });
    const list = (n: number) =>
      `{ users(first: ${n}) { nodes { followers { count } following(first: 1) { nodes { id } } } } }`;
    await api(t, ROOT_TOKEN).graphql(list(1));
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(list(1)));
    const four = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(list(4)));
    expect(four.result.body.data.users.nodes).toHaveLength(4);
    expect(four.count).toBe(one.count);
  });
});

describe('Project.starrers', () => {
  it('lists who starred the project as GET /projects/:id/starrers does; hidden with a private project; batched', async () => {
    const g = await createGroup(t, { path: 'stars', visibility: 'public' });
    const open = await createProject(t, { namespace: g, path: 'open', visibility: 'public' });
    const closed = await createProject(t, { namespace: g, path: 'closed', visibility: 'private' });
    const fans = [await createUser(t, { username: 'fan-a' }), await createUser(t, { username: 'fan-b' })];
    for (const fan of fans) await api(t, fan.token).post(`/api/v4/projects/${open.id}/star`).expect(201);
    await api(t, ROOT_TOKEN).post(`/api/v4/projects/${closed.id}/star`).expect(201);
    const q = (path: string, args = '') =>
      `{ project(fullPath: "${path}") { starrers${args} { count nodes { starredSince user { username } } } } }`;
    const res = await api(t).graphql(q('stars/open'));
    expect(res.body.errors).toBeUndefined();
    const rest = (await api(t).get(`/api/v4/projects/${open.id}/starrers`).expect(200)).body;
    expect(res.body.data.project.starrers).toEqual({
      count: 2,
      nodes: rest.map((s: { starred_since: string; user: { username: string } }) => ({
        starredSince: s.starred_since,
        user: { username: s.user.username },
      })),
    });
    const found = await api(t).graphql(q('stars/open', '(search: "-b")'));
    expect(found.body.data.project.starrers.nodes.map((s: { user: { username: string } }) => s.user.username)).toEqual([
      'fan-b',
    ]);
    const stranger = await createUser(t);
    expect((await api(t, stranger.token).graphql(q('stars/closed'))).body).toEqual({ data: { project: null } });
    expect((await api(t, ROOT_TOKEN).graphql(q('stars/closed'))).body.data.project.starrers.count).toBe(1);
    const list = (n: number) =>
      `{ group(fullPath: "stars") { projects(first: ${n}) { nodes { starrers { count } } } } }`;
    await api(t, ROOT_TOKEN).graphql(list(1));
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(list(1)));
    const two = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(list(2)));
    expect(two.result.body.data.group.projects.nodes).toHaveLength(2);
    expect(two.count).toBe(one.count);
  });
});

describe('Project.pagesDomains', () => {
  it("lists each project's domains by domain in the same statements for 1 project and for 3", async () => {
    const g = await createGroup(t, { path: 'sites', visibility: 'public' });
    for (const [i, path] of ['a', 'b', 'c'].entries()) {
      const p = await createProject(t, { namespace: g, path, visibility: 'public' });
      for (const name of ['www', 'docs'].slice(0, i + 1))
        await api(t, ROOT_TOKEN)
          .post(`/api/v4/projects/${p.id}/pages/domains`)
          .send({ domain: `${name}.${path}.test` })
          .expect(201);
    }
    const q = (n: number) =>
      `{ group(fullPath: "sites") { projects(first: ${n}) { nodes { path pagesDomains { count nodes { domain url } } } } } }`;
    const all = await api(t, ROOT_TOKEN).graphql(q(3));
    expect(all.body.errors).toBeUndefined();
    expect(
      all.body.data.group.projects.nodes.map((p: { path: string; pagesDomains: { nodes: { domain: string }[] } }) => [
        p.path,
        p.pagesDomains.nodes.map((d) => d.domain),
      ]),
    ).toEqual([
      ['a', ['www.a.test']],
      ['b', ['docs.b.test', 'www.b.test']],
      ['c', ['docs.c.test', 'www.c.test']],
    ]);
    await api(t, ROOT_TOKEN).graphql(q(1));
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q(1)));
    const three = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q(3)));
    expect(three.count).toBe(one.count);
  });
});

describe('User.impersonationTokens', () => {
  it("lists a user's tokens by state as GET /users/:id/impersonation_tokens does, for administrators, batched", async () => {
    const users = [await createUser(t, { username: 'imp-a' }), await createUser(t, { username: 'imp-b' })];
    for (const u of users)
      for (const name of ['one', 'two'])
        await api(t, ROOT_TOKEN)
          .post(`/api/v4/users/${u.id}/impersonation_tokens`)
          .send({ name, scopes: ['api'] })
          .expect(201);
    const [first] = (await api(t, ROOT_TOKEN).get(`/api/v4/users/${users[0].id}/impersonation_tokens`)).body;
    await api(t, ROOT_TOKEN).delete(`/api/v4/users/${users[0].id}/impersonation_tokens/${first.id}`).expect(204);
    const q = (id: number, state: string) =>
      `{ user(id: ${id}) { impersonationTokens(state: ${state}) { count nodes { databaseId name active } } } }`;
    for (const state of ['ALL', 'ACTIVE', 'INACTIVE']) {
      const gql = await api(t, ROOT_TOKEN).graphql(q(users[0].id, state));
      expect(gql.body.errors).toBeUndefined();
      const rest = await api(t, ROOT_TOKEN)
        .get(`/api/v4/users/${users[0].id}/impersonation_tokens?state=${state.toLowerCase()}`)
        .expect(200);
      expect(
        gql.body.data.user.impersonationTokens.nodes.map((n: { databaseId: number; name: string; active: boolean }) => [
          n.databaseId,
          n.name,
          n.active,
        ]),
      ).toEqual(rest.body.map((r: { id: number; name: string; active: boolean }) => [r.id, r.name, r.active]));
    }
    expect((await api(t, users[1].token).graphql(q(users[1].id, 'ALL'))).body).toEqual({
      data: { user: { impersonationTokens: null } },
    });
    const list = (n: number) => `{ users(search: "imp-", first: ${n}) { nodes { impersonationTokens { count } } } }`;
    await api(t, ROOT_TOKEN).graphql(list(1));
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(list(1)));
    const two = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(list(2)));
    expect(two.result.body.data.users.nodes).toHaveLength(2);
    expect(two.count).toBe(one.count);
  });
});
