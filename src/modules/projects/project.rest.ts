import { defineRoutes } from '../../rest/route';
import type { ParamSpec } from '../../core/params/coerce';
import { PAGE_PARAMS } from '../../core/pagination/page';
import { SORT_REST_VALUES, VISIBILITY_REST_VALUES } from '../access/visibility.type';
import { PROJECT_ORDER_REST_VALUES } from './project.inputs';
import { ProjectGroupLinkWire, ProjectSimpleWire, ProjectWire } from './project.presenter';

/** Filters of GET /projects and GET /groups/:id/projects (spec 4.12). */
export const PROJECT_FILTER_PARAMS: Record<string, ParamSpec> = {
  archived: { type: 'bool' },
  visibility: { type: 'enum', values: VISIBILITY_REST_VALUES },
  order_by: { type: 'enum', values: PROJECT_ORDER_REST_VALUES },
  sort: { type: 'enum', values: SORT_REST_VALUES },
  search: { type: 'string' },
  simple: { type: 'bool', arg: '-' },
  owned: { type: 'bool' },
  starred: { type: 'bool' },
  membership: { type: 'bool' },
  ...PAGE_PARAMS,
};

export const projectShapeFor = (vars: Record<string, unknown>) => (vars.simple === true ? ProjectSimpleWire : ProjectWire);

const ATTRIBUTE_PARAMS: Record<string, ParamSpec> = {
  name: { type: 'string', arg: 'input.name' },
  path: { type: 'string', arg: 'input.path' },
  description: { type: 'string', arg: 'input.description' },
  visibility: { type: 'enum', values: VISIBILITY_REST_VALUES, arg: 'input.visibility' },
  default_branch: { type: 'string', arg: 'input.defaultBranch' },
  shared_runners_enabled: { type: 'bool', arg: 'input.sharedRunnersEnabled' },
  issues_enabled: { type: 'bool', arg: 'input.issuesEnabled' },
  merge_requests_enabled: { type: 'bool', arg: 'input.mergeRequestsEnabled' },
  wiki_enabled: { type: 'bool', arg: 'input.wikiEnabled' },
  jobs_enabled: { type: 'bool', arg: 'input.jobsEnabled' },
  snippets_enabled: { type: 'bool', arg: 'input.snippetsEnabled' },
  container_registry_enabled: { type: 'bool', arg: 'input.containerRegistryEnabled' },
  public_jobs: { type: 'bool', arg: 'input.publicJobs' },
  request_access_enabled: { type: 'bool', arg: 'input.requestAccessEnabled' },
  tag_list: { type: 'stringArray', arg: 'input.tagList' },
};

const ID: Record<string, ParamSpec> = { id: { type: 'id' } };
const tag = 'projects';

export const projectRoutes = defineRoutes([
  { method: 'GET', path: '/projects', field: 'Query.projects', params: PROJECT_FILTER_PARAMS, paginated: true, shape: projectShapeFor, shapes: [ProjectWire, ProjectSimpleWire], summary: 'List projects visible to the caller', tag },
  { method: 'GET', path: '/projects/:id', field: 'Query.project', params: ID, shape: ProjectWire, summary: 'Get a project', tag },
  {
    method: 'POST', path: '/projects', field: 'Mutation.createProject',
    params: { ...ATTRIBUTE_PARAMS, namespace_id: { type: 'int', arg: 'input.namespaceId' } },
    atLeastOne: ['name', 'path'], shape: ProjectWire, summary: 'Create a project', tag,
  },
  { method: 'PUT', path: '/projects/:id', field: 'Mutation.updateProject', params: { ...ID, ...ATTRIBUTE_PARAMS }, shape: ProjectWire, summary: 'Update a project', tag },
  { method: 'DELETE', path: '/projects/:id', field: 'Mutation.deleteProject', params: ID, summary: 'Delete a project', tag },
  { method: 'POST', path: '/projects/:id/archive', field: 'Mutation.archiveProject', params: ID, shape: ProjectWire, summary: 'Archive a project', tag },
  { method: 'POST', path: '/projects/:id/unarchive', field: 'Mutation.unarchiveProject', params: ID, shape: ProjectWire, summary: 'Unarchive a project', tag },
  {
    method: 'POST', path: '/projects/:id/star', field: 'Mutation.starProject', params: ID, unwrap: 'project',
    status: (data) => (data.changed ? 201 : 304), shape: ProjectWire, summary: 'Star a project (304 when already starred)', tag,
  },
  {
    method: 'POST', path: '/projects/:id/share', field: 'Mutation.shareProject',
    params: {
      ...ID,
      group_id: { type: 'int', required: true, arg: 'input.groupId' },
      group_access: { type: 'int', required: true, arg: 'input.groupAccess' },
      expires_at: { type: 'date', arg: 'input.expiresAt' },
    },
    shape: ProjectGroupLinkWire, summary: 'Share a project with a group', tag,
  },
  {
    method: 'DELETE', path: '/projects/:id/share/:group_id', field: 'Mutation.unshareProject',
    params: { ...ID, group_id: { type: 'int', notFound: 'Group Link' } }, summary: 'Stop sharing a project with a group', tag,
  },
]);
