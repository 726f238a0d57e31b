import type { ParamSpec } from '../../core/params/coerce';
import { defineRoutes } from '../../rest/route';
import { SORT_REST_VALUES } from '../access/visibility.type';
import { PAGE_PARAMS } from '../../core/pagination/page';
import { PROJECT_FILTER_PARAMS, projectShapeFor } from '../projects/project.rest';
import { ProjectSimpleWire, ProjectWire } from '../projects/project.presenter';
import { GROUP_ORDER_REST_VALUES } from './group.inputs';
import { CustomAttributeWire, GroupDetailWire, GroupSearchHitWire, GroupUpdateWire, GroupWire } from './group.presenter';

/** Parameters of GET /groups and /groups/:id/subgroups (spec 4.10, 4.11). */
const LIST_PARAMS: Record<string, ParamSpec> = {
  skip_groups: { type: 'intArray' },
  all_available: { type: 'bool' },
  search: { type: 'string' },
  order_by: { type: 'enum', values: GROUP_ORDER_REST_VALUES },
  sort: { type: 'enum', values: SORT_REST_VALUES },
  statistics: { type: 'bool' },
  owned: { type: 'bool' },
  custom_attributes: { type: 'hash' },
  pagination: { type: 'enum', values: ['offset', 'keyset'] },
  cursor: { type: 'string' },
  ...PAGE_PARAMS,
};

// spec 2.3: a search answers the reduced record (id, name, path, description).
const groupListShape = (p: Record<string, unknown>) => (typeof p.search === 'string' && p.search !== '' ? GroupSearchHitWire : GroupWire);

const ID: Record<string, ParamSpec> = { id: { type: 'id' } };
const ATTRS: Record<string, ParamSpec> = {
  name: { type: 'string', arg: 'input.name' },
  path: { type: 'string', arg: 'input.path' },
  description: { type: 'string', arg: 'input.description' },
  visibility: { type: 'enum', values: ['private', 'internal', 'public'], arg: 'input.visibility' },
  lfs_enabled: { type: 'bool', arg: 'input.lfsEnabled' },
  request_access_enabled: { type: 'bool', arg: 'input.requestAccessEnabled' },
};
const tag = 'groups';

export const groupRoutes = defineRoutes([
  { method: 'GET', path: '/groups', field: 'Query.groups', params: LIST_PARAMS, paginated: true, shape: groupListShape, shapes: [GroupWire, GroupSearchHitWire], summary: 'List groups', tag },
  {
    method: 'GET', path: '/groups/:id/subgroups', field: 'Query.groupSubgroups', params: { ...ID, ...LIST_PARAMS }, paginated: true,
    shape: groupListShape, shapes: [GroupWire, GroupSearchHitWire], summary: 'List direct subgroups', tag,
  },
  {
    method: 'GET', path: '/groups/:id/projects', field: 'Query.groupProjects', params: { ...ID, ...PROJECT_FILTER_PARAMS }, paginated: true,
    shape: projectShapeFor, shapes: [ProjectWire, ProjectSimpleWire], summary: "List a group's projects (and projects shared with it)", tag,
  },
  { method: 'GET', path: '/groups/:id', field: 'Query.group', params: ID, shape: GroupDetailWire, summary: 'Get a group with its projects', tag },
  {
    method: 'POST', path: '/groups', field: 'Mutation.createGroup',
    params: { ...ATTRS, name: { ...ATTRS.name, required: true }, path: { ...ATTRS.path, required: true }, parent_id: { type: 'int', arg: 'input.parentId', notFound: 'Group' } },
    shape: GroupDetailWire, summary: 'Create a group', tag,
  },
  { method: 'PUT', path: '/groups/:id', field: 'Mutation.updateGroup', params: { ...ID, ...ATTRS }, shape: GroupUpdateWire, summary: 'Update a group', tag },
  { method: 'DELETE', path: '/groups/:id', field: 'Mutation.deleteGroup', params: ID, summary: 'Delete a group with its subgroups and projects', tag },
  {
    method: 'POST', path: '/groups/:id/projects/:project_id', field: 'Mutation.transferProjectToGroup',
    params: { ...ID, project_id: { type: 'id', arg: 'projectId' } }, shape: GroupDetailWire, summary: 'Transfer a project into the group (admin)', tag,
  },
  {
    method: 'GET', path: '/groups/:id/custom_attributes', field: 'Query.groupCustomAttributes',
    params: { id: { type: 'id', arg: 'groupId' } }, shape: CustomAttributeWire, summary: 'List custom attributes (admin)', tag,
  },
  {
    method: 'GET', path: '/groups/:id/custom_attributes/:key', field: 'Query.groupCustomAttribute',
    params: { id: { type: 'id', arg: 'groupId' }, key: { type: 'string' } }, shape: CustomAttributeWire, summary: 'Get a custom attribute (admin)', tag,
  },
  {
    method: 'PUT', path: '/groups/:id/custom_attributes/:key', field: 'Mutation.setGroupCustomAttribute',
    params: { id: { type: 'id', arg: 'groupId' }, key: { type: 'string' }, value: { type: 'string', required: true } },
    shape: CustomAttributeWire, summary: 'Set a custom attribute (admin)', tag,
  },
  {
    method: 'DELETE', path: '/groups/:id/custom_attributes/:key', field: 'Mutation.deleteGroupCustomAttribute',
    params: { id: { type: 'id', arg: 'groupId' }, key: { type: 'string' } }, summary: 'Delete a custom attribute (admin)', tag,
  },
]);
