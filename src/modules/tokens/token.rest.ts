import { defineRoutes, type ParamException } from '../../rest/route';
import {
  ImpersonationTokenWire,
  ImpersonationTokenWithTokenWire,
  PersonalAccessTokenWire,
  PersonalAccessTokenWithTokenWire,
} from './token.presenter';

const USER: Record<string, ParamException> = { user_id: { notFound: 'User' } };
const TOKEN: Record<string, ParamException> = { ...USER, id: { notFound: 'Impersonation Token' } };
const tag = 'impersonation tokens';
const PAT = 'personal access tokens';
const PAT_ID: Record<string, ParamException> = { id: { notFound: '' } };

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
  // Later GitLab's personal access tokens API (docs/client-routes.md); `self` routes before `:id`.
  {
    method: 'GET',
    path: '/personal_access_tokens',
    field: 'Query.personalAccessTokens',
    paginated: true,
    shape: PersonalAccessTokenWire,
    summary: 'List personal access tokens (administrators: all)',
    tag: PAT,
  },
  {
    method: 'GET',
    path: '/personal_access_tokens/self',
    field: 'Query.currentPersonalAccessToken',
    shape: PersonalAccessTokenWire,
    summary: 'The token of this request',
    tag: PAT,
  },
  {
    method: 'DELETE',
    path: '/personal_access_tokens/self',
    field: 'Mutation.revokeCurrentPersonalAccessToken',
    summary: 'Revoke the token of this request',
    tag: PAT,
  },
  {
    method: 'POST',
    path: '/personal_access_tokens/self/rotate',
    field: 'Mutation.rotateCurrentPersonalAccessToken',
    params: { expires_at: { type: 'date' } },
    status: 200,
    shape: PersonalAccessTokenWithTokenWire,
    summary: 'Rotate the token of this request',
    tag: PAT,
  },
  {
    method: 'GET',
    path: '/personal_access_tokens/:id',
    field: 'Query.personalAccessToken',
    params: PAT_ID,
    shape: PersonalAccessTokenWire,
    summary: 'Get a personal access token',
    tag: PAT,
  },
  {
    method: 'DELETE',
    path: '/personal_access_tokens/:id',
    field: 'Mutation.revokePersonalAccessToken',
    params: PAT_ID,
    summary: 'Revoke a personal access token',
    tag: PAT,
  },
  {
    method: 'POST',
    path: '/personal_access_tokens/:id/rotate',
    field: 'Mutation.rotatePersonalAccessToken',
    params: { ...PAT_ID, expires_at: { type: 'date' } },
    status: 200,
    shape: PersonalAccessTokenWithTokenWire,
    summary: 'Rotate a personal access token',
    tag: PAT,
  },
  {
    method: 'POST',
    path: '/users/:user_id/personal_access_tokens',
    field: 'Mutation.createUserPersonalAccessToken',
    params: { ...USER, name: {}, scopes: {}, expires_at: { type: 'date' } },
    shape: PersonalAccessTokenWithTokenWire,
    summary: 'Create a personal access token for a user (admin); the token is shown once',
    tag: PAT,
  },
]);
