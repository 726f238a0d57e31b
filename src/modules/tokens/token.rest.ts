import type { ParamSpec } from '../../core/params/coerce';
import { defineRoutes } from '../../rest/route';
import { PAGE_PARAMS } from '../../core/pagination/page';
import { TOKEN_STATE_REST_VALUES } from './token.inputs';
import { ImpersonationTokenWire, ImpersonationTokenWithTokenWire } from './token.presenter';

const USER: Record<string, ParamSpec> = { user_id: { type: 'int', notFound: 'User' } };
const TOKEN: Record<string, ParamSpec> = { ...USER, id: { type: 'int', notFound: 'Impersonation Token' } };
const tag = 'impersonation tokens';

export const tokenRoutes = defineRoutes([
  {
    method: 'GET', path: '/users/:user_id/impersonation_tokens', field: 'Query.impersonationTokens',
    params: { ...USER, state: { type: 'enum', values: TOKEN_STATE_REST_VALUES }, ...PAGE_PARAMS }, paginated: true,
    shape: ImpersonationTokenWire, summary: "List a user's impersonation tokens (admin)", tag,
  },
  {
    method: 'GET', path: '/users/:user_id/impersonation_tokens/:id', field: 'Query.impersonationToken',
    params: TOKEN, shape: ImpersonationTokenWire, summary: 'Get an impersonation token (admin)', tag,
  },
  {
    method: 'POST', path: '/users/:user_id/impersonation_tokens', field: 'Mutation.createImpersonationToken',
    params: {
      ...USER,
      name: { type: 'string', required: true, arg: 'input.name' },
      scopes: { type: 'stringArray', required: true, arg: 'input.scopes' },
      expires_at: { type: 'date', arg: 'input.expiresAt' },
    },
    shape: ImpersonationTokenWithTokenWire, summary: 'Create an impersonation token (admin); the token is shown once', tag,
  },
  {
    method: 'DELETE', path: '/users/:user_id/impersonation_tokens/:id', field: 'Mutation.revokeImpersonationToken',
    params: TOKEN, summary: 'Revoke an impersonation token (admin)', tag,
  },
]);
