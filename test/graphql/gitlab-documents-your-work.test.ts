import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import type { TestUser } from '../support/factories';
import { api, useTestApp } from '../support/test-app';
import { runDocument } from './gitlab-frontend/run';

const t = useTestApp();

// GitLab's Your work > Projects tab documents and the lists' sort preference
// (test/graphql/gitlab-frontend/documents), run unmodified with the variables GitLab's frontend sends,
// and compared with REST's answers.
const MEMBERSHIP = 'projects/your_work/graphql/queries/membership_projects.query.graphql';
const INACTIVE = 'projects/your_work/graphql/queries/inactive_projects.query.graphql';
const CONTRIBUTED = 'projects/your_work/graphql/queries/contributed_projects.query.graphql';
const USER_PROJECTS = 'projects/your_work/graphql/queries/user_projects.query.graphql';
const PREFERENCES = 'projects/your_work/graphql/mutations/user_preferences_update.mutation.graphql';
const LIST_PREFERENCES = 'groups_projects/graphql/mutations/user_preferences_update.mutation.graphql';

interface RestProject {
  id: number;
  path_with_namespace: string;
  name_with_namespace: string;
  archived: boolean;
  star_count: number;
  created_at: string;
}

async function rest<T>(path: string, token: string): Promise<T> {
  return (await api(t, token).get(`/api/v4${path}`).expect(200)).body as T;
}

async function data(path: string, variables: Record<string, unknown>, token: string) {
  const res = await runDocument(t.server, path, variables, token);
  expect([path, res.status, res.errors]).toEqual([path, 200, undefined]);
  return res.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** What the Project fragment shows of a REST project (the values both surfaces carry). */
const shown = (r: RestProject) =>
  expect.objectContaining({
    id: `gid://gitlab/Project/${r.id}`,
    fullPath: r.path_with_namespace,
    nameWithNamespace: r.name_with_namespace,
    archived: r.archived,
    starCount: r.star_count,
    createdAt: r.created_at,
  });

/** alice: a personal project, Developer of acme (three projects, one archived), Maintainer of one of bob's projects. */
async function world(): Promise<{ alice: TestUser; bob: TestUser }> {
  const alice = await createUser(t, { username: 'alice' });
  const bob = await createUser(t, { username: 'bob' });
  const acme = await createGroup(t, { path: 'acme', name: 'Acme' });
  await addGroupMember(t, acme, alice, 30);
  await createProject(t, { namespace: acme, path: 'api', name: 'API' });
  await createProject(t, { namespace: acme, path: 'web', name: 'Web' });
  await createProject(t, { namespace: acme, path: 'old', name: 'Old', archived: true });
  await createProject(t, { namespace: { id: alice.namespaceId }, path: 'notes', name: 'Notes' });
  const tools = await createProject(t, { namespace: { id: bob.namespaceId }, path: 'tools', name: 'Tools' });
  await addProjectMember(t, tools, alice, 40);
  await createProject(t, { namespace: { id: bob.namespaceId }, path: 'hidden', name: 'Hidden' });
  return { alice, bob };
}

describe("GitLab's Your work > Projects tabs", () => {
  it("membership_projects pages the caller's member projects in REST's order", async () => {
    const { alice } = await world();
    const first = (await data(MEMBERSHIP, { first: 3 }, alice.token)).projects;
    const second = (await data(MEMBERSHIP, { first: 3, after: first.pageInfo.endCursor }, alice.token)).projects;
    const listed = await rest<RestProject[]>('/projects?membership=true', alice.token);
    expect(listed).toHaveLength(5);
    expect([...first.nodes, ...second.nodes]).toEqual(listed.map(shown));
    expect([first.pageInfo.hasNextPage, second.pageInfo.hasNextPage]).toEqual([true, false]);
  });

  it('inactive_projects lists the archived member projects, as REST with archived=true', async () => {
    const { alice } = await world();
    const got = (await data(INACTIVE, {}, alice.token)).projects;
    const archived = await rest<RestProject[]>('/projects?membership=true&archived=true', alice.token);
    expect(archived.map((p) => p.path_with_namespace)).toEqual(['acme/old']);
    expect(got.nodes).toEqual(archived.map(shown));
  });

  it('contributed_projects is empty: no contribution (push, merge request, issue, comment) exists here', async () => {
    const { alice } = await world();
    const got = await data(CONTRIBUTED, { first: 20 }, alice.token);
    expect(got.currentUser.contributedProjects).toEqual({
      nodes: [],
      pageInfo: expect.objectContaining({ hasNextPage: false, hasPreviousPage: false }),
    });
  });

  it("user_projects lists the caller's starred projects in GitLab's ProjectSort orders, as REST", async () => {
    const { alice } = await world();
    const mine = await rest<RestProject[]>('/projects?membership=true', alice.token);
    for (const p of mine.filter((x) => x.path_with_namespace !== 'acme/web'))
      await api(t, alice.token).post(`/api/v4/projects/${p.id}/star`).expect(201);
    const byName = (await data(USER_PROJECTS, { starred: true, first: 20 }, alice.token)).currentUser;
    expect(byName.contributedProjects).toBeUndefined();
    const restByName = await rest<RestProject[]>(
      `/users/${alice.username}/starred_projects?order_by=name&sort=asc`,
      alice.token,
    );
    expect(restByName).toHaveLength(4);
    expect(byName.starredProjects.nodes).toEqual(restByName.map(shown));
    const newest = await data(USER_PROJECTS, { starred: true, first: 2, sort: 'ID_DESC' }, alice.token);
    const restNewest = await rest<RestProject[]>(
      `/users/${alice.username}/starred_projects?order_by=id&sort=desc`,
      alice.token,
    );
    expect(newest.currentUser.starredProjects.nodes).toEqual(restNewest.slice(0, 2).map(shown));
    expect(newest.currentUser.starredProjects.pageInfo.hasNextPage).toBe(true);
    // STORAGE_SIZE_DESC: the seeded sizes, largest first, paged by cursor.
    const sizes: Record<string, number> = {
      'acme/api': 5,
      'acme/old': 9_000_000_000,
      'alice/notes': 7,
      'bob/tools': 1,
    };
    for (const [path, size] of Object.entries(sizes))
      await t.orm.em
        .getConnection()
        .execute('update projects set storage_size = ? where id = ?', [
          size,
          mine.find((p) => p.path_with_namespace === path)!.id,
        ]);
    const bySize: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (
        await data(USER_PROJECTS, { starred: true, first: 1, after, sort: 'STORAGE_SIZE_DESC' }, alice.token)
      ).currentUser.starredProjects;
      bySize.push(...page.nodes.map((n: { fullPath: string }) => n.fullPath));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(bySize).toEqual(['acme/old', 'alice/notes', 'acme/api', 'bob/tools']);
    const contributed = await data(USER_PROJECTS, { contributed: true, first: 20 }, alice.token);
    expect(contributed.currentUser).toEqual({
      id: `gid://gitlab/User/${alice.id}`,
      contributedProjects: expect.anything(),
    });
    expect(contributed.currentUser.contributedProjects.nodes).toEqual([]);
  });
});

describe("GitLab's list sort preference (user_preferences_update)", () => {
  it('stores projectsSort for the caller, keeps the other preferences, and adds nothing to REST', async () => {
    const { alice, bob } = await world();
    await api(t, alice.token).put('/api/v4/user/preferences').send({ view_diffs_file_by_file: true }).expect(200);
    const input = { input: { projectsSort: 'LATEST_ACTIVITY_DESC' } };
    const got = await data(PREFERENCES, input, alice.token);
    expect(got.userPreferencesUpdate.userPreferences).toEqual({ projectsSort: 'LATEST_ACTIVITY_DESC' });
    const again = await data(LIST_PREFERENCES, { input: { projectsSort: 'NAME_DESC' } }, alice.token);
    expect(again.userPreferencesUpdate.userPreferences).toEqual({ projectsSort: 'NAME_DESC' });
    const read = await api(t, alice.token).graphql(
      '{ currentUser { preferences { projectsSort viewDiffsFileByFile } } }',
    );
    expect(read.body.data.currentUser.preferences).toEqual({ projectsSort: 'NAME_DESC', viewDiffsFileByFile: true });
    // REST's preferences keep GitLab's keys; another user's preference is untouched.
    const restPrefs = await rest<Record<string, unknown>>('/user/preferences', alice.token);
    expect(restPrefs).toMatchObject({ view_diffs_file_by_file: true });
    expect(Object.keys(restPrefs)).not.toContain('projects_sort');
    const other = await api(t, bob.token).graphql('{ currentUser { preferences { projectsSort } } }');
    expect(other.body.data.currentUser.preferences).toEqual({ projectsSort: null });
    // A REST write without projectsSort keeps it.
    await api(t, alice.token).put('/api/v4/user/preferences').send({ show_whitespace_in_diffs: false }).expect(200);
    const kept = await api(t, alice.token).graphql('{ currentUser { preferences { projectsSort } } }');
    expect(kept.body.data.currentUser.preferences).toEqual({ projectsSort: 'NAME_DESC' });
  });
});
