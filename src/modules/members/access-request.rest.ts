import { defineRoutes, type RouteDef } from '../../rest/route';
import { int, shape, time } from '../../core/wire/wire';
import { USER_BASIC_FIELDS } from '../users';
import { MemberWire } from './member.presenter';

/** GitLab's Entities::AccessRequester: UserBasic plus requested_at. */
export const AccessRequesterWire = shape('AccessRequester', {
  ...USER_BASIC_FIELDS,
  id: int('userId'),
  requested_at: time(),
});

/** GitLab 10.3's lib/api/access_requests.rb, mounted for groups and projects. */
function routes(kind: 'group' | 'project'): RouteDef[] {
  const Kind = kind === 'group' ? 'Group' : 'Project';
  const base = `/${kind}s/:id/access_requests`;
  const SRC = { id: { arg: `${kind}Id` } };
  const USER = { user_id: { arg: 'userId', notFound: '' } };
  const tag = 'access requests';
  return [
    {
      method: 'GET',
      path: base,
      field: `Query.${kind}AccessRequests`,
      params: SRC,
      paginated: true,
      shape: AccessRequesterWire,
      summary: `List the access requests of a ${kind}`,
      tag,
    },
    {
      method: 'POST',
      path: base,
      field: `Mutation.request${Kind}Access`,
      params: SRC,
      shape: AccessRequesterWire,
      summary: `Request access to a ${kind}`,
      tag,
    },
    {
      method: 'PUT',
      path: `${base}/:user_id/approve`,
      field: `Mutation.approve${Kind}AccessRequest`,
      params: { ...SRC, ...USER },
      status: 201,
      shape: MemberWire,
      summary: `Approve an access request to a ${kind}`,
      tag,
    },
    {
      method: 'DELETE',
      path: `${base}/:user_id`,
      field: `Mutation.deny${Kind}AccessRequest`,
      params: { ...SRC, ...USER },
      summary: `Deny (or withdraw) an access request to a ${kind}`,
      tag,
    },
  ];
}

export const accessRequestRoutes = defineRoutes([...routes('group'), ...routes('project')]);
