import { defineRoutes, type ParamException } from '../../rest/route';
import { GpgKeyWire } from './gpg-key.presenter';

// Integer ids beyond int4 are simply not found: the user's, then the key's 404.
const USER: Record<string, ParamException> = { id: { arg: 'userId', notFound: 'User' } };
const KEY: Record<string, ParamException> = { key_id: { notFound: 'GPG Key' } };
const tag = 'gpg keys';

/**
 * GitLab 10.3 lib/api/users.rb (GPG keys, added in 10.0): administrators under /users/:id, the caller
 * under /user. Revoke answers 202 with Grape's body for `status :accepted` as the endpoint's value: `202`.
 */
export const gpgKeyRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/users/:id/gpg_keys',
    field: 'Mutation.createUserGpgKey',
    params: USER,
    shape: GpgKeyWire,
    summary: 'Add a GPG key to a user (admin)',
    tag,
  },
  {
    method: 'GET',
    path: '/users/:id/gpg_keys',
    field: 'Query.userGpgKeys',
    params: USER,
    paginated: true,
    shape: GpgKeyWire,
    summary: "List a user's GPG keys (admin)",
    tag,
  },
  {
    // Current GitLab (13.5): any caller reads one key of a user; the list stays 10.3's (admin).
    method: 'GET',
    path: '/users/:id/gpg_keys/:key_id',
    field: 'Query.userGpgKey',
    params: { ...USER, ...KEY },
    shape: GpgKeyWire,
    summary: "Get one of a user's GPG keys",
    tag,
  },
  {
    method: 'DELETE',
    path: '/users/:id/gpg_keys/:key_id',
    field: 'Mutation.deleteUserGpgKey',
    params: { ...USER, ...KEY },
    summary: "Delete a user's GPG key (admin)",
    tag,
  },
  {
    method: 'POST',
    path: '/users/:id/gpg_keys/:key_id/revoke',
    field: 'Mutation.revokeUserGpgKey',
    params: { ...USER, ...KEY },
    status: 202,
    scalar: 'status',
    summary: "Revoke a user's GPG key (admin)",
    tag,
  },
  {
    method: 'GET',
    path: '/user/gpg_keys',
    field: 'Query.currentUserGpgKeys',
    paginated: true,
    shape: GpgKeyWire,
    summary: "List the caller's GPG keys",
    tag,
  },
  {
    method: 'GET',
    path: '/user/gpg_keys/:key_id',
    field: 'Query.currentUserGpgKey',
    params: KEY,
    shape: GpgKeyWire,
    summary: "Get one of the caller's GPG keys",
    tag,
  },
  {
    method: 'POST',
    path: '/user/gpg_keys',
    field: 'Mutation.createCurrentUserGpgKey',
    shape: GpgKeyWire,
    summary: 'Add a GPG key to the caller',
    tag,
  },
  {
    method: 'POST',
    path: '/user/gpg_keys/:key_id/revoke',
    field: 'Mutation.revokeCurrentUserGpgKey',
    params: KEY,
    status: 202,
    scalar: 'status',
    summary: "Revoke one of the caller's GPG keys",
    tag,
  },
  {
    method: 'DELETE',
    path: '/user/gpg_keys/:key_id',
    field: 'Mutation.deleteCurrentUserGpgKey',
    params: KEY,
    summary: "Delete one of the caller's GPG keys",
    tag,
  },
]);
