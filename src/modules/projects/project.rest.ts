import { ProjectStarrerWire } from './project-starrers';
import { shape, str } from '../../core/wire/wire';
import { defineRoutes, type ParamException } from '../../rest/route';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Cursor } from '../../core/pagination/cursor';
import { SortDirection } from '../access';
import { PROJECT_DEFAULT_SORT } from './project.inputs';
import { ProjectGroupLinkWire, ProjectSimpleWire, ProjectWire, ProjectWithAccessWire } from './project.presenter';
import { UserBasicWire } from '../users';
import { projectCustomAttributeEndpoints } from './project-custom-attributes';

/** REST-only parameter of the project lists (spec 4.12): the reduced record. */
export const PROJECT_FILTER_PARAMS: Record<string, ParamException> = {
  // GraphQL's `sort` and `archived` are GitLab's later GraphQL forms; REST keeps 10.3's asc/desc and boolean.
  archived: { arg: 'archivedOnly' },
  sort: { arg: 'sortDirection' },
  simple: { type: 'bool', arg: '-', description: 'Return the reduced record (no visibility, namespace, …).' },
  statistics: { type: 'bool', arg: '-', description: 'Include the storage statistics (GitLab 10.3).' },
};
const STATISTICS_PARAM: Record<string, ParamException> = { statistics: PROJECT_FILTER_PARAMS.statistics };
/** `project(id, fullPath)`: REST's `:id` is the id or path; GraphQL's `fullPath` is no REST parameter. */
const BY_ID: Record<string, ParamException> = { id: { required: true }, full_path: { omit: true } };

export const projectShapeFor = (vars: Record<string, unknown>) =>
  vars.simple === true ? ProjectSimpleWire : ProjectWire;
/** GitLab 10.3's present_projects: `simple` → BasicProjectDetails, a signed-in caller → ProjectWithAccess (with `permissions`). */
export const projectListShapeFor = (vars: Record<string, unknown>, ctx: RequestCtx) =>
  vars.simple === true ? ProjectSimpleWire : ctx.user ? ProjectWithAccessWire : ProjectWire;
export const PROJECT_LIST_SHAPES = [ProjectWire, ProjectWithAccessWire, ProjectSimpleWire];
const projectWithAccessFor = (_vars: Record<string, unknown>, ctx: RequestCtx) =>
  ctx.user ? ProjectWithAccessWire : ProjectWire;

/** 10.3's name of public_jobs on POST/PUT /projects (`expose :public_builds, as: :public_jobs`). */
const WRITE_PARAMS: Record<string, ParamException> = { public_builds: { aliasOf: 'public_jobs' } };

/** GitLab's keyset rel="next" for projects: `id_after` (sort asc) or `id_before` (desc) the page's last id. */
const idAfterOrBefore = (next: Cursor, p: Record<string, unknown>): Record<string, string> => ({
  [(p.sort ?? PROJECT_DEFAULT_SORT) === SortDirection.ASC ? 'id_after' : 'id_before']: String(next.id),
});

// spec 4.12: a share's expiry is a calendar date (400 "expires_at is invalid" before any lookup).
const EXPIRES: Record<string, ParamException> = { expires_at: { type: 'date' } };
const tag = 'projects';

/** POST /projects/:id/import_project_members/:project_id's answer. */
const ProjectMembersImportWire = shape('ProjectMembersImport', { status: str() });

export const projectRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/users/:user_id/projects',
    field: 'Query.userProjects',
    params: PROJECT_FILTER_PARAMS,
    paginated: true,
    shape: projectListShapeFor,
    shapes: PROJECT_LIST_SHAPES,
    summary: "List a user's personal projects visible to the caller",
    tag: 'users',
  },
  {
    method: 'GET',
    path: '/projects/:id/starrers',
    field: 'Query.projectStarrers',
    params: { id: { arg: 'projectId' } },
    paginated: true,
    shape: ProjectStarrerWire,
    summary: 'List who starred a project',
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): the projects list's filters over the user's stars.
    method: 'GET',
    path: '/users/:user_id/starred_projects',
    field: 'Query.userStarredProjects',
    params: PROJECT_FILTER_PARAMS,
    paginated: true,
    shape: projectListShapeFor,
    shapes: PROJECT_LIST_SHAPES,
    summary: 'List the projects a user starred, visible to the caller',
    tag: 'users',
  },
  {
    method: 'GET',
    path: '/projects',
    field: 'Query.projects',
    params: PROJECT_FILTER_PARAMS,
    paginated: true,
    keysetNext: idAfterOrBefore,
    shape: projectListShapeFor,
    shapes: PROJECT_LIST_SHAPES,
    summary: 'List projects visible to the caller',
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id',
    field: 'Query.project',
    params: { ...STATISTICS_PARAM, ...BY_ID },
    shape: projectWithAccessFor,
    shapes: [ProjectWire, ProjectWithAccessWire],
    summary: 'Get a project',
    tag,
  },
  {
    method: 'POST',
    path: '/projects',
    field: 'Mutation.createProject',
    params: WRITE_PARAMS,
    rules: [{ atLeastOneOf: ['name', 'path'] }],
    files: ['avatar'],
    shape: ProjectWire,
    summary: 'Create a project',
    tag,
  },
  {
    // GitLab 10.3: admin only (checked after the parameters), `name` required, the project created as that user.
    method: 'POST',
    path: '/projects/user/:user_id',
    field: 'Mutation.createProjectForUser',
    params: { name: { required: true }, user_id: { notFound: 'User' }, ...WRITE_PARAMS },
    files: ['avatar'],
    shape: ProjectWire,
    summary: 'Create a project for a user (admin)',
    tag,
  },
  {
    method: 'PUT',
    path: '/projects/:id',
    field: 'Mutation.updateProject',
    params: WRITE_PARAMS,
    files: ['avatar'],
    shape: ProjectWire,
    // GitLab 10.3's `update_params_at_least_one_of`: a PUT must send one of the writable attributes.
    rules: [{ atLeastOneOf: 'input' }],
    summary: 'Update a project',
    tag,
  },
  {
    method: 'POST',
    path: '/projects/:id/fork',
    field: 'Mutation.forkProject',
    shape: ProjectWire,
    summary: 'Fork a project (no repository is copied)',
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id/forks',
    field: 'Query.projectForks',
    params: PROJECT_FILTER_PARAMS,
    paginated: true,
    shape: projectListShapeFor,
    shapes: PROJECT_LIST_SHAPES,
    summary: 'List the forks of a project',
    tag,
  },
  {
    method: 'POST',
    path: '/projects/:id/fork/:forked_from_id',
    field: 'Mutation.linkProjectFork',
    shape: ProjectWire,
    summary: 'Mark a project as a fork of another (admin; 409 when already a fork)',
    tag,
  },
  {
    method: 'DELETE',
    path: '/projects/:id/fork',
    field: 'Mutation.unlinkProjectFork',
    status: (data) => ((data as unknown) === true ? 204 : 304),
    summary: 'Remove the fork relation (304 when the project is no fork)',
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id/users',
    field: 'Query.projectUsers',
    paginated: true,
    shape: UserBasicWire,
    summary: 'List the users of a project',
    tag,
  },
  // GitLab 10.3 destroys projects asynchronously and answers `accepted!`: 202 {"message":"202 Accepted"} (the row is gone here already).
  {
    method: 'DELETE',
    path: '/projects/:id',
    field: 'Mutation.deleteProject',
    status: 202,
    scalar: 'accepted',
    summary: 'Delete a project',
    tag,
  },
  {
    method: 'POST',
    path: '/projects/:id/archive',
    field: 'Mutation.archiveProject',
    shape: ProjectWire,
    summary: 'Archive a project',
    tag,
  },
  {
    method: 'POST',
    path: '/projects/:id/unarchive',
    field: 'Mutation.unarchiveProject',
    shape: ProjectWire,
    summary: 'Unarchive a project',
    tag,
  },
  {
    method: 'POST',
    path: '/projects/:id/star',
    field: 'Mutation.starProject',
    unwrap: 'project',
    status: (data) => (data.changed ? 201 : 304),
    shape: ProjectWire,
    summary: 'Star a project (304 when already starred)',
    tag,
  },
  {
    method: 'POST',
    path: '/projects/:id/unstar',
    field: 'Mutation.unstarProject',
    unwrap: 'project',
    status: (data) => (data.changed ? 201 : 304),
    shape: ProjectWire,
    summary: 'Unstar a project (304 when not starred)',
    tag,
  },
  {
    method: 'POST',
    path: '/projects/:id/share',
    field: 'Mutation.shareProject',
    params: EXPIRES,
    shape: ProjectGroupLinkWire,
    summary: 'Share a project with a group',
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): answers {"status":"success"}.
    method: 'POST',
    path: '/projects/:id/import_project_members/:project_id',
    field: 'Mutation.importProjectMembers',
    shape: ProjectMembersImportWire,
    summary: "Copy another project's members into a project",
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): `namespace` is the target's id or full path.
    method: 'PUT',
    path: '/projects/:id/transfer',
    field: 'Mutation.transferProject',
    params: { namespace: { arg: 'namespaceId' } },
    shape: ProjectWire,
    summary: 'Transfer a project to another namespace',
    tag,
  },
  {
    method: 'DELETE',
    path: '/projects/:id/share/:group_id',
    field: 'Mutation.unshareProject',
    params: { group_id: { notFound: 'Group Link' } },
    summary: 'Stop sharing a project with a group',
    tag,
  },
]);

/** `/projects/:id/custom_attributes[/:key]` (the custom-attributes module's endpoints, as GitLab includes them). */
export const projectCustomAttributeRoutes = defineRoutes(projectCustomAttributeEndpoints.routes);
