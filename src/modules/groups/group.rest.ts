import { defineRoutes, type ParamException } from '../../rest/route';
import { PROJECT_FILTER_PARAMS, projectShapeFor } from '../projects';
import { ProjectSimpleWire, ProjectWire } from '../projects';
import {
  GroupDetailWire,
  GroupDetailWithSharesWire,
  GroupSearchHitWire,
  GroupUpdateWire,
  GroupWire,
  PublicGroupDetailsWire,
} from './group.presenter';
import { groupCustomAttributeEndpoints } from './group-custom-attributes';

/** REST-only parameter of the group lists: selects the `statistics` key (wire includeIf). */
const LIST_PARAMS: Record<string, ParamException> = {
  statistics: { type: 'bool', arg: '-', description: 'Include storage statistics (administrators only).' },
  // GitLab's REST default (a user's own groups); its GraphQL `groups` lists every visible group.
  all_available: { restDefault: false },
};
/** GET /groups: GraphQL's `sort` is GitLab's later `<field>_<direction>` string; REST keeps 10.3's asc/desc. */
const GROUPS_LIST_PARAMS: Record<string, ParamException> = { ...LIST_PARAMS, sort: { arg: 'sortDirection' } };

// spec 2.3: a search answers the reduced record (id, name, path, description).
const groupListShape = (p: Record<string, unknown>) =>
  typeof p.search === 'string' && p.search !== '' ? GroupSearchHitWire : GroupWire;

const tag = 'groups';

export const groupRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/groups',
    field: 'Query.groups',
    params: GROUPS_LIST_PARAMS,
    paginated: true,
    shape: groupListShape,
    shapes: [GroupWire, GroupSearchHitWire],
    summary: 'List groups',
    tag,
  },
  {
    method: 'GET',
    path: '/groups/:id/subgroups',
    field: 'Query.groupSubgroups',
    params: LIST_PARAMS,
    paginated: true,
    shape: groupListShape,
    shapes: [GroupWire, GroupSearchHitWire],
    summary: 'List direct subgroups',
    tag,
  },
  {
    // Later GitLab: the subgroups list at any depth (docs/client-routes.md).
    method: 'GET',
    path: '/groups/:id/descendant_groups',
    field: 'Query.groupDescendantGroups',
    params: LIST_PARAMS,
    paginated: true,
    shape: groupListShape,
    shapes: [GroupWire, GroupSearchHitWire],
    summary: 'List subgroups at any depth',
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): the projects list's filters over the group's shares.
    method: 'GET',
    path: '/groups/:id/projects/shared',
    field: 'Query.groupSharedProjects',
    params: PROJECT_FILTER_PARAMS,
    paginated: true,
    shape: projectShapeFor,
    shapes: [ProjectWire, ProjectSimpleWire],
    summary: 'List the projects shared with a group',
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id/invited_groups',
    field: 'Query.projectInvitedGroups',
    params: { id: { arg: 'projectId' } },
    paginated: true,
    shape: GroupWire,
    summary: 'List the groups a project is shared with',
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): where the project may be moved.
    method: 'GET',
    path: '/projects/:id/transfer_locations',
    field: 'Query.projectTransferLocations',
    params: { id: { arg: 'projectId' } },
    paginated: true,
    shape: PublicGroupDetailsWire,
    summary: 'List the groups a project can be transferred to',
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): where the project may be shared.
    method: 'GET',
    path: '/projects/:id/share_locations',
    field: 'Query.projectShareLocations',
    params: { id: { arg: 'projectId' } },
    paginated: true,
    shape: PublicGroupDetailsWire,
    summary: 'List the groups a project can be shared with',
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): filed here, as a project's groups are groups.
    method: 'GET',
    path: '/projects/:id/groups',
    field: 'Query.projectGroups',
    params: { id: { arg: 'projectId' } },
    paginated: true,
    shape: PublicGroupDetailsWire,
    summary: "List a project's group, its ancestors and the groups it is shared with",
    tag,
  },
  {
    method: 'GET',
    path: '/groups/:id/projects',
    field: 'Query.groupProjects',
    params: PROJECT_FILTER_PARAMS,
    paginated: true,
    shape: projectShapeFor,
    shapes: [ProjectWire, ProjectSimpleWire],
    summary: "List a group's projects (and projects shared with it)",
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): where a group may be moved.
    method: 'GET',
    path: '/groups/:id/transfer_locations',
    field: 'Query.groupTransferLocations',
    params: { id: { arg: 'groupId' } },
    paginated: true,
    shape: PublicGroupDetailsWire,
    summary: 'List the groups a group can be transferred to',
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): `group_id` absent makes the group top-level.
    method: 'POST',
    path: '/groups/:id/transfer',
    field: 'Mutation.transferGroup',
    params: { group_id: { arg: 'targetId', notFound: 'Group' } },
    shape: GroupDetailWithSharesWire,
    summary: 'Transfer a group under another group or to the top level',
    tag,
  },
  // `group(id, fullPath)`: REST's `:id` is the id or path; GraphQL's `fullPath` is no REST parameter.
  {
    method: 'GET',
    path: '/groups/:id',
    field: 'Query.group',
    params: { id: { required: true }, full_path: { omit: true } },
    shape: GroupDetailWire,
    summary: 'Get a group with its projects',
    tag,
  },
  {
    method: 'POST',
    path: '/groups',
    field: 'Mutation.createGroup',
    params: { parent_id: { notFound: 'Group' } },
    files: ['avatar'],
    shape: GroupDetailWire,
    summary: 'Create a group',
    tag,
  },
  {
    method: 'PUT',
    path: '/groups/:id',
    field: 'Mutation.updateGroup',
    files: ['avatar'],
    shape: GroupUpdateWire,
    summary: 'Update a group',
    tag,
  },
  {
    method: 'DELETE',
    path: '/groups/:id',
    field: 'Mutation.deleteGroup',
    summary: 'Delete a group with its subgroups and projects',
    tag,
  },
  {
    method: 'POST',
    path: '/groups/:id/projects/:project_id',
    field: 'Mutation.transferProjectToGroup',
    shape: GroupDetailWire,
    summary: 'Transfer a project into the group (admin)',
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): group-to-group shares.
    method: 'POST',
    path: '/groups/:id/share',
    field: 'Mutation.shareGroup',
    params: { group_id: { notFound: 'Group' }, expires_at: { type: 'date' } },
    shape: GroupDetailWithSharesWire,
    summary: 'Share a group with another group',
    tag,
  },
  {
    method: 'DELETE',
    path: '/groups/:id/share/:group_id',
    field: 'Mutation.unshareGroup',
    params: { group_id: { notFound: 'Group Link' } },
    summary: 'Stop sharing a group with another group',
    tag,
  },
  // Custom attributes: the custom-attributes module (one route set per owner kind).
]);

/** `/groups/:id/custom_attributes[/:key]` (the custom-attributes module's endpoints, as GitLab includes them). */
export const groupCustomAttributeRoutes = defineRoutes(groupCustomAttributeEndpoints.routes);
