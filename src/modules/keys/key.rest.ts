import { defineRoutes, type ParamException } from '../../rest/route';
import { SshKeyWire, SshKeyWithUserWire } from './key.presenter';

// Path ids beyond int4 are the 404 of what they name, as any unknown id.
const USER: Record<string, ParamException> = { id: { arg: 'userId', notFound: 'User' } };
const KEY: Record<string, ParamException> = { key_id: { notFound: 'Key' } };
const tag = 'ssh keys';

/** GitLab 10.3's SSH key routes (lib/api/users.rb, lib/api/keys.rb); who may call each is its field's @Allow. */
export const sshKeyRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/users/:id/keys',
    field: 'Query.userSshKeys',
    params: USER,
    paginated: true,
    shape: SshKeyWire,
    summary: "List a user's SSH keys (admin)",
    tag,
  },
  {
    method: 'POST',
    path: '/users/:id/keys',
    field: 'Mutation.createUserSshKey',
    params: USER,
    shape: SshKeyWire,
    summary: 'Add an SSH key to a user (admin)',
    tag,
  },
  {
    // Current GitLab (14.9): any caller reads one key of a user; the list stays 10.3's (admin).
    method: 'GET',
    path: '/users/:id/keys/:key_id',
    field: 'Query.userSshKey',
    params: { ...USER, ...KEY },
    shape: SshKeyWire,
    summary: "Get one of a user's SSH keys",
    tag,
  },
  {
    method: 'DELETE',
    path: '/users/:id/keys/:key_id',
    field: 'Mutation.deleteUserSshKey',
    params: { ...USER, ...KEY },
    summary: "Delete a user's SSH key (admin)",
    tag,
  },
  {
    method: 'GET',
    path: '/user/keys',
    field: 'Query.currentUserSshKeys',
    paginated: true,
    shape: SshKeyWire,
    summary: "List the authenticated user's SSH keys",
    tag,
  },
  {
    method: 'GET',
    path: '/user/keys/:key_id',
    field: 'Query.currentUserSshKey',
    params: KEY,
    shape: SshKeyWire,
    summary: 'Get one SSH key of the authenticated user',
    tag,
  },
  {
    method: 'POST',
    path: '/user/keys',
    field: 'Mutation.createCurrentUserSshKey',
    shape: SshKeyWire,
    summary: 'Add an SSH key to the authenticated user',
    tag,
  },
  {
    method: 'DELETE',
    path: '/user/keys/:key_id',
    field: 'Mutation.deleteCurrentUserSshKey',
    params: KEY,
    summary: 'Delete an SSH key of the authenticated user',
    tag,
  },
  // Later GitLab (python-gitlab's gl.keys.get(fingerprint=...)); 10.3 has only GET /keys/:id.
  {
    method: 'GET',
    path: '/keys',
    field: 'Query.sshKeyByFingerprint',
    shape: SshKeyWithUserWire,
    summary: 'Find an SSH key by fingerprint, with its user (admin; later GitLab)',
    tag,
  },
  {
    method: 'GET',
    path: '/keys/:id',
    field: 'Query.sshKey',
    params: { id: { notFound: '' } },
    shape: SshKeyWithUserWire,
    summary: 'Get an SSH key with its user (admin)',
    tag,
  },
]);
