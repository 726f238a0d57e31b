import { defineRoutes, type ParamException } from '../../rest/route';
import type { Cursor } from '../../core/pagination/cursor';
import { SortDirection } from '../access/visibility.type';
import { PROJECT_DEFAULT_SORT } from './project.inputs';
import { ProjectGroupLinkWire, ProjectSimpleWire, ProjectWire } from './project.presenter';

/** REST-only parameter of the project lists (spec 4.12): the reduced record. */
export const PROJECT_FILTER_PARAMS: Record<string, ParamException> = {
  simple: { type: 'bool', arg: '-', description: 'Return the reduced record (no visibility, namespace, …).' },
};

export const projectShapeFor = (vars: Record<string, unknown>) => (vars.simple === true ? ProjectSimpleWire : ProjectWire);

/** GitLab's keyset rel="next" for projects: `id_after` (sort asc) or `id_before` (desc) the page's last id. */
const idAfterOrBefore = (next: Cursor, p: Record<string, unknown>): Record<string, string> =>
  ({ [(p.sort ?? PROJECT_DEFAULT_SORT) === SortDirection.ASC ? 'id_after' : 'id_before']: String(next.id) });

// spec 4.12: a share's expiry is a calendar date (400 "expires_at is invalid" before any lookup).
const EXPIRES: Record<string, ParamException> = { expires_at: { type: 'date' } };
const tag = 'projects';

export const projectRoutes = defineRoutes([
  {
    method: 'GET', path: '/projects', field: 'Query.projects', params: PROJECT_FILTER_PARAMS, paginated: true, keysetNext: idAfterOrBefore,
    shape: projectShapeFor, shapes: [ProjectWire, ProjectSimpleWire], summary: 'List projects visible to the caller', tag,
  },
  { method: 'GET', path: '/projects/:id', field: 'Query.project', shape: ProjectWire, summary: 'Get a project', tag },
  {
    method: 'POST', path: '/projects', field: 'Mutation.createProject',
    rules: [{ atLeastOneOf: ['name', 'path'] }], files: ['avatar'], shape: ProjectWire, summary: 'Create a project', tag,
  },
  { method: 'PUT', path: '/projects/:id', field: 'Mutation.updateProject', files: ['avatar'], shape: ProjectWire, summary: 'Update a project', tag },
  { method: 'DELETE', path: '/projects/:id', field: 'Mutation.deleteProject', summary: 'Delete a project', tag },
  { method: 'POST', path: '/projects/:id/archive', field: 'Mutation.archiveProject', shape: ProjectWire, summary: 'Archive a project', tag },
  { method: 'POST', path: '/projects/:id/unarchive', field: 'Mutation.unarchiveProject', shape: ProjectWire, summary: 'Unarchive a project', tag },
  {
    method: 'POST', path: '/projects/:id/star', field: 'Mutation.starProject', unwrap: 'project',
    status: (data) => (data.changed ? 201 : 304), shape: ProjectWire, summary: 'Star a project (304 when already starred)', tag,
  },
  {
    method: 'POST', path: '/projects/:id/unstar', field: 'Mutation.unstarProject', unwrap: 'project',
    status: (data) => (data.changed ? 201 : 304), shape: ProjectWire, summary: 'Unstar a project (304 when not starred)', tag,
  },
  {
    method: 'POST', path: '/projects/:id/share', field: 'Mutation.shareProject',
    params: EXPIRES,
    shape: ProjectGroupLinkWire, summary: 'Share a project with a group', tag,
  },
  {
    method: 'DELETE', path: '/projects/:id/share/:group_id', field: 'Mutation.unshareProject',
    params: { group_id: { notFound: 'Group Link' } }, summary: 'Stop sharing a project with a group', tag,
  },
]);
