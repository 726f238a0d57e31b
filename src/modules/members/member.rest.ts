import type { ParamSpec } from '../../core/params/coerce';
import { defineRoutes, type RouteDef } from '../../rest/route';
import { PAGE_PARAMS } from '../../core/pagination/page';
import { MemberWire } from './member.presenter';

/** The same five routes under /groups/:id/members and /projects/:id/members. */
function memberRoutes(kind: 'group' | 'project'): RouteDef[] {
  const Kind = kind === 'group' ? 'Group' : 'Project';
  const base = `/${kind}s/:id/members`;
  const srcArg = kind === 'group' ? 'groupId' : 'projectId';
  const SRC: Record<string, ParamSpec> = { id: { type: 'id', arg: srcArg } };
  const USER: Record<string, ParamSpec> = { user_id: { type: 'int', notFound: 'Member', arg: 'userId' } };
  const tag = 'members';
  return [
    {
      method: 'GET', path: base, field: `Query.${kind}Members`, params: { id: { type: 'id', arg: 'sourceId' }, query: { type: 'string' }, ...PAGE_PARAMS },
      paginated: true, shape: MemberWire, summary: `List direct members of a ${kind}`, tag,
    },
    { method: 'GET', path: `${base}/:user_id`, field: `Query.${kind}Member`, params: { ...SRC, ...USER }, shape: MemberWire, summary: `Get a member of a ${kind}`, tag },
    {
      method: 'POST', path: base, field: `Mutation.add${Kind}Member`,
      params: {
        ...SRC,
        user_id: { type: 'int', required: true, arg: 'input.userId', notFound: 'User' },
        access_level: { type: 'int', required: true, arg: 'input.accessLevel' },
        expires_at: { type: 'date', arg: 'input.expiresAt' },
      },
      shape: MemberWire, summary: `Add a member to a ${kind}`, tag,
    },
    {
      method: 'PUT', path: `${base}/:user_id`, field: `Mutation.update${Kind}Member`,
      params: { ...SRC, ...USER, access_level: { type: 'int', required: true, arg: 'input.accessLevel' }, expires_at: { type: 'date', arg: 'input.expiresAt' } },
      shape: MemberWire, summary: `Change a ${kind} member's access level`, tag,
    },
    { method: 'DELETE', path: `${base}/:user_id`, field: `Mutation.remove${Kind}Member`, params: { ...SRC, ...USER }, summary: `Remove a member from a ${kind}`, tag },
  ];
}

export const memberRestRoutes = defineRoutes([...memberRoutes('group'), ...memberRoutes('project')]);
