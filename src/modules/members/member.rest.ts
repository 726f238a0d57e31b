import { defineRoutes, type ParamException, type RouteDef } from '../../rest/route';
import { MemberWire } from './member.presenter';
import { UserMembershipWire } from './user-memberships.presenter';

/** The same five routes under /groups/:id/members and /projects/:id/members. */
function memberRoutes(kind: 'group' | 'project'): RouteDef[] {
  const Kind = kind === 'group' ? 'Group' : 'Project';
  const base = `/${kind}s/:id/members`;
  const srcArg = kind === 'group' ? 'groupId' : 'projectId';
  const SRC: Record<string, ParamException> = { id: { arg: srcArg } };
  const USER: Record<string, ParamException> = { user_id: { notFound: 'Member' } };
  // spec 4.13: expires_at is a calendar date, checked with the parameters.
  const EXPIRES: Record<string, ParamException> = { expires_at: { type: 'date' } };
  const tag = 'members';
  return [
    {
      method: 'GET',
      path: base,
      field: `Query.${kind}Members`,
      params: { id: { arg: 'sourceId' } },
      paginated: true,
      shape: MemberWire,
      summary: `List direct members of a ${kind}`,
      tag,
    },
    {
      // Later GitLab: members of the source and of the groups above it (docs/client-routes.md).
      method: 'GET',
      path: `${base}/all`,
      field: `Query.${kind}MembersAll`,
      params: { id: { arg: 'sourceId' } },
      paginated: true,
      shape: MemberWire,
      summary: `List members of a ${kind}, inherited ones included`,
      tag,
    },
    {
      method: 'GET',
      path: `${base}/all/:user_id`,
      field: `Query.${kind}MemberAll`,
      params: { ...SRC, ...USER },
      shape: MemberWire,
      summary: `Get a member of a ${kind}, inherited ones included`,
      tag,
    },
    {
      method: 'GET',
      path: `${base}/:user_id`,
      field: `Query.${kind}Member`,
      params: { ...SRC, ...USER },
      shape: MemberWire,
      summary: `Get a member of a ${kind}`,
      tag,
    },
    {
      method: 'POST',
      path: base,
      field: `Mutation.add${Kind}Member`,
      // Listed in Grape's order, the order of its joined messages (user_id is missing, access_level is missing).
      params: { ...SRC, user_id: { notFound: 'User' }, access_level: {}, ...EXPIRES },
      shape: MemberWire,
      summary: `Add a member to a ${kind}`,
      tag,
    },
    {
      method: 'PUT',
      path: `${base}/:user_id`,
      field: `Mutation.update${Kind}Member`,
      params: { ...SRC, ...USER, ...EXPIRES },
      shape: MemberWire,
      summary: `Change a ${kind} member's access level`,
      tag,
    },
    {
      method: 'DELETE',
      path: `${base}/:user_id`,
      field: `Mutation.remove${Kind}Member`,
      params: { ...SRC, ...USER },
      summary: `Remove a member from a ${kind}`,
      tag,
    },
  ];
}

export const memberRestRoutes = defineRoutes([
  ...memberRoutes('group'),
  ...memberRoutes('project'),
  {
    // Later GitLab's users API (docs/rest.md#memberships).
    method: 'GET',
    path: '/users/:user_id/memberships',
    field: 'Query.userMemberships',
    params: { user_id: { notFound: 'User' } },
    paginated: true,
    shape: UserMembershipWire,
    summary: "List a user's memberships (admin)",
    tag: 'members',
  },
]);
