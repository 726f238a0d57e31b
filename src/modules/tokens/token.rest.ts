import { defineRoutes, type ParamException } from '../../rest/route';
import { ImpersonationTokenWire, ImpersonationTokenWithTokenWire } from './token.presenter';

const USER: Record<string, ParamException> = { user_id: { notFound: 'User' } };
const TOKEN: Record<string, ParamException> = { ...USER, id: { notFound: 'Impersonation Token' } };
const tag = 'impersonation tokens';

export const tokenRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/users/:user_id/impersonation_tokens',
    field: 'Query.impersonationTokens',
    params: USER,
    paginated: true,
    shape: ImpersonationTokenWire,
    summary: "List a user's impersonation tokens (admin)",
    tag,
  },
  {
    method: 'GET',
    path: '/users/:user_id/impersonation_tokens/:id',
    field: 'Query.impersonationToken',
    params: TOKEN,
    shape: ImpersonationTokenWire,
    summary: 'Get an impersonation token (admin)',
    tag,
  },
  {
    method: 'POST',
    path: '/users/:user_id/impersonation_tokens',
    field: 'Mutation.createImpersonationToken',
    params: { ...USER, name: {}, scopes: {}, expires_at: { type: 'date' } },
    shape: ImpersonationTokenWithTokenWire,
    summary: 'Create an impersonation token (admin); the token is shown once',
    tag,
  },
  {
    method: 'DELETE',
    path: '/users/:user_id/impersonation_tokens/:id',
    field: 'Mutation.revokeImpersonationToken',
    params: TOKEN,
    summary: 'Revoke an impersonation token (admin)',
    tag,
  },
]);
