/**
 * Every collected GitLab frontend document that holds an operation (fragments come in through `#import`):
 * which area of GitLab's UI it serves, whether we mean to serve it, and its validation state against our
 * schema today. docs/gitlab-frontend-documents.md is generated from this list and the schema.
 *
 * `expected`:
 * - `'validates'`: the document validates; validate.test.ts keeps it that way.
 * - a number: it is known to fail with at most that many validation errors. When it validates, the test
 *   fails until the entry says `'validates'` (the list only shrinks); when it gets worse, the test fails too.
 * - `'client-only'`: every field is `@client` local state, GitLab's frontend sends nothing to the server.
 */
export type Area =
  'runners' | 'jobs' | 'groups' | 'projects' | 'users' | 'members' | 'environments' | 'tokens' | 'namespaces';

export interface ManifestEntry {
  area: Area;
  /** True when we mean to serve it; otherwise `outOfScope` says which feature we do not serve. */
  inScope: boolean;
  outOfScope?: string;
  expected: 'validates' | 'client-only' | number;
  /** What the page is (GitLab's UI), for the report. */
  page: string;
}

export const MANIFEST: Record<string, ManifestEntry> = {
  'access_tokens/graphql/queries/get_projects.query.graphql': {
    area: 'tokens',
    inScope: true,
    expected: 'validates',
    page: 'token creation: project picker',
  },
  'admin/groups/index/graphql/queries/admin_groups.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'validates',
    page: 'Admin > Groups list',
  },
  'admin/groups/index/graphql/queries/group_counts.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'validates',
    page: 'Admin > Groups tab counts',
  },
  'admin/projects/index/graphql/queries/admin_projects.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Admin > Projects list',
  },
  'admin/projects/index/graphql/queries/project_counts.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Admin > Projects tab counts',
  },
  'admin/users/graphql/queries/get_users_group_counts.query.graphql': {
    area: 'users',
    inScope: true,
    expected: 'validates',
    page: 'Admin > Users list: group counts',
  },
  'admin/users/graphql/queries/get_users_membership_counts.query.graphql': {
    area: 'users',
    inScope: true,
    expected: 'validates',
    page: 'Admin > Users list: membership counts',
  },
  'ci/jobs_page/graphql/queries/get_jobs.query.graphql': {
    area: 'jobs',
    inScope: true,
    expected: 'validates',
    page: 'project Jobs list',
  },
  'ci/jobs_page/graphql/queries/get_jobs_count.query.graphql': {
    area: 'jobs',
    inScope: true,
    expected: 'validates',
    page: 'project Jobs list: count',
  },
  'ci/runner/graphql/edit/runner_form.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runner edit form',
  },
  'ci/runner/graphql/list/all_runners.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'Admin > Runners list',
  },
  'ci/runner/graphql/list/all_runners_count.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'Admin > Runners tab counts',
  },
  'ci/runner/graphql/list/bulk_runner_delete.mutation.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runners list: bulk delete',
  },
  'ci/runner/graphql/list/group_runners.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'group Runners list',
  },
  'ci/runner/graphql/list/group_runners_count.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'group Runners tab counts',
  },
  'ci/runner/graphql/list/project_runners.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'project CI/CD settings: runners',
  },
  'ci/runner/graphql/list/runner_job_count.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runners list: job count of a row',
  },
  'ci/runner/graphql/show/runner_jobs.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runner detail: jobs tab',
  },
  'ci/runner/graphql/shared/runner_toggle_paused.mutation.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runners list/detail: pause and resume',
  },
  'ci/runner/graphql/show/runner.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runner detail',
  },
  'ci/runner/graphql/show/runner_projects.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runner detail: assigned projects',
  },
  'environments/graphql/queries/environment_app.query.graphql': {
    area: 'environments',
    inScope: true,
    expected: 'client-only',
    page: 'project Environments list (served by the REST resolver in GitLab)',
  },
  'graphql_shared/queries/current_user.query.graphql': {
    area: 'users',
    inScope: true,
    expected: 'validates',
    page: 'shared: the signed-in user',
  },
  'graphql_shared/queries/get_users_by_usernames.query.graphql': {
    area: 'users',
    inScope: true,
    expected: 'validates',
    page: 'shared: users by username (filters, pickers)',
  },
  'graphql_shared/queries/groups_autocomplete.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'validates',
    page: 'shared: group autocomplete',
  },
  'graphql_shared/queries/projects_autocomplete.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'shared: project autocomplete (runner filters)',
  },
  'graphql_shared/queries/users_search_all_paginated.query.graphql': {
    area: 'users',
    inScope: true,
    expected: 'validates',
    page: 'shared: user search with pages',
  },
  'groups/queries/search_groups_where_user_can_create_subgroups.query.graphql': {
    area: 'namespaces',
    inScope: true,
    expected: 'validates',
    page: 'project transfer: target namespace picker',
  },
  'groups/show/graphql/queries/shared_groups.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'validates',
    page: 'group overview: shared groups tab',
  },
  'groups/your_work/graphql/queries/group_counts.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Groups tab counts',
  },
  'groups/your_work/graphql/queries/groups.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'client-only',
    page: 'Your work > Groups list (served by the REST resolver in GitLab)',
  },
  'projects/your_work/graphql/queries/project_counts.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Projects tab counts',
  },
  'projects/your_work/graphql/queries/projects.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Projects list',
  },
  'ci/runner/graphql/edit/runner_update.mutation.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runner edit form: save',
  },
  'ci/runner/graphql/list/bulk_runner_pause.mutation.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runners list: bulk pause',
  },
  'ci/runner/graphql/list/project_assignable_runners.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'project CI/CD settings: assignable runners',
  },
  'ci/runner/graphql/list/runner_assign_to_project.mutation.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'project CI/CD settings: assign a runner',
  },
  'ci/runner/graphql/list/runner_unassign_from_project.mutation.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'project CI/CD settings: unassign a runner',
  },
  'ci/runner/graphql/list/runners_registration_token_reset.mutation.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runners list: reset registration token',
  },
  'ci/runner/graphql/new/runner_create.mutation.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'new runner form',
  },
  'ci/runner/graphql/register/runner_for_registration.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'new runner: registration page',
  },
  'ci/runner/graphql/show/runner_managers.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'runner detail: managers',
  },
  'ci/runner/project_runners_settings/graphql/group_runners_enabled.mutation.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'project CI/CD settings: group runners toggle',
  },
  'ci/runner/project_runners_settings/graphql/group_runners_enabled.query.graphql': {
    area: 'runners',
    inScope: true,
    expected: 'validates',
    page: 'project CI/CD settings: group runners state',
  },
  'environments/graphql/mutations/create_environment.mutation.graphql': {
    area: 'environments',
    inScope: true,
    expected: 'validates',
    page: 'new environment form',
  },
  'environments/graphql/mutations/delete_environment.mutation.graphql': {
    area: 'environments',
    inScope: true,
    expected: 'client-only',
    page: 'environments list: delete (local resolver over REST)',
  },
  'environments/graphql/mutations/stop_environment.mutation.graphql': {
    area: 'environments',
    inScope: true,
    expected: 'client-only',
    page: 'environments list: stop (local resolver over REST)',
  },
  'environments/graphql/mutations/update_environment.mutation.graphql': {
    area: 'environments',
    inScope: true,
    expected: 'validates',
    page: 'edit environment form',
  },
  'graphql_shared/queries/group_users_search.query.graphql': {
    area: 'members',
    inScope: true,
    expected: 'validates',
    page: 'shared: group member search (assignee pickers)',
  },
  'graphql_shared/queries/project_user_members_search.query.graphql': {
    area: 'members',
    inScope: true,
    expected: 'validates',
    page: 'shared: project member search',
  },
  'graphql_shared/queries/users_search.query.graphql': {
    area: 'members',
    inScope: true,
    expected: 'validates',
    page: 'shared: project member search with pages',
  },
  'projects/your_work/graphql/queries/personal_projects.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Projects: personal',
  },
  'projects/your_work/graphql/queries/starred_projects.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Projects: starred',
  },
  'environments/graphql/mutations/action.mutation.graphql': {
    area: 'environments',
    inScope: true,
    expected: 'client-only',
    page: 'environments list: run a job action (local resolver over REST)',
  },
  'environments/graphql/mutations/cancel_auto_stop.mutation.graphql': {
    area: 'environments',
    inScope: true,
    expected: 'client-only',
    page: 'environments list: cancel auto stop (local resolver over REST)',
  },
  'environments/graphql/queries/environment.query.graphql': {
    area: 'environments',
    inScope: false,
    outOfScope:
      "Kubernetes (the form reads the environment's cluster agent, Kubernetes namespace and Flux resource path)",
    expected: 3,
    page: 'edit environment form: the environment',
  },
  'environments/graphql/queries/environment_details.query.graphql': {
    area: 'environments',
    inScope: false,
    outOfScope: 'deployments (its deployment history, their jobs, commits and triggerers)',
    expected: 6,
    page: 'environment detail: deployment history',
  },
  'environments/graphql/queries/folder.query.graphql': {
    area: 'environments',
    inScope: true,
    expected: 'client-only',
    page: 'environments list: a folder (local resolver over REST)',
  },
  'graphql_shared/queries/get_users_groups.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'validates',
    page: "shared: the caller's groups (group pickers)",
  },
  'graphql_shared/queries/get_users_projects.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: "shared: the caller's projects (project pickers)",
  },
  'graphql_shared/queries/project_autocomplete_users.query.graphql': {
    area: 'members',
    inScope: true,
    expected: 'validates',
    page: 'shared: project user autocomplete',
  },
  'graphql_shared/queries/project_topics_search.query.graphql': {
    area: 'projects',
    inScope: false,
    outOfScope:
      "topic records (GitLab's Admin > Topics: each topic a record with an id, title and avatar; here a project's topics are its tag list)",
    expected: 1,
    page: 'project settings: topics picker',
  },
  'graphql_shared/queries/users_autocomplete.query.graphql': {
    area: 'members',
    inScope: true,
    expected: 'validates',
    page: 'shared: group or project user autocomplete',
  },
  'groups/show/graphql/queries/shared_projects.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'validates',
    page: 'group overview: shared projects tab',
  },
  'groups/show/graphql/queries/subgroups_and_projects.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'client-only',
    page: 'group overview: subgroups and projects tab (served by the REST resolver in GitLab)',
  },
  'groups/your_work/graphql/queries/active_groups.query.graphql': {
    area: 'groups',
    inScope: true,
    expected: 'client-only',
    page: 'Your work > Groups: active (served by the REST resolver in GitLab)',
  },
  'groups_projects/graphql/mutations/user_preferences_update.mutation.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'group and project lists: remember the sort',
  },
  'projects/your_work/graphql/mutations/user_preferences_update.mutation.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Projects: remember the sort',
  },
  'projects/your_work/graphql/queries/contributed_projects.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Projects: contributed',
  },
  'projects/your_work/graphql/queries/inactive_projects.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Projects: inactive',
  },
  'projects/your_work/graphql/queries/membership_projects.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Projects: member',
  },
  'projects/your_work/graphql/queries/user_projects.query.graphql': {
    area: 'projects',
    inScope: true,
    expected: 'validates',
    page: 'Your work > Projects: contributed and starred',
  },
};
