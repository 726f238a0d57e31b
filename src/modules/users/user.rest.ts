import type { RequestCtx } from '../../core/context/request-ctx';
import type { ParamSpec } from '../../core/params/coerce';
import { defineRoutes } from '../../rest/route';
import { PAGE_PARAMS } from '../../core/pagination/page';
import { UserBasicWire, UserPublicWire, UserWire, UserWithAdminWire } from './user.presenter';
import { policy } from '../access/policy';

const forAdmin = (ctx: RequestCtx) => policy.isAdmin(ctx.user);

const ATTRS: Record<string, ParamSpec> = {
  email: { type: 'string', arg: 'input.email' },
  username: { type: 'string', arg: 'input.username' },
  name: { type: 'string', arg: 'input.name' },
  password: { type: 'string', arg: 'input.password' },
  admin: { type: 'bool', arg: 'input.admin' },
  can_create_group: { type: 'bool', arg: 'input.canCreateGroup' },
  projects_limit: { type: 'int', arg: 'input.projectsLimit' },
  external: { type: 'bool', arg: 'input.external' },
  bio: { type: 'string', arg: 'input.bio' },
  location: { type: 'string', arg: 'input.location' },
  organization: { type: 'string', arg: 'input.organization' },
  skype: { type: 'string', arg: 'input.skype' },
  linkedin: { type: 'string', arg: 'input.linkedin' },
  twitter: { type: 'string', arg: 'input.twitter' },
  website_url: { type: 'string', arg: 'input.websiteUrl' },
};
const required = (name: string): ParamSpec => ({ ...ATTRS[name], required: true });
const omit = (o: Record<string, ParamSpec>, names: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !names.includes(k)));
const USER_ID: Record<string, ParamSpec> = { id: { type: 'int', notFound: 'User' } };
const tag = 'users';

export const userRoutes = defineRoutes([
  {
    method: 'GET', path: '/user', field: 'Query.currentUser',
    shape: (_p, ctx) => (forAdmin(ctx) ? UserWithAdminWire : UserPublicWire), shapes: [UserPublicWire, UserWithAdminWire],
    summary: 'The authenticated user', tag,
  },
  {
    method: 'GET', path: '/users', field: 'Query.users',
    params: { search: { type: 'string' }, username: { type: 'string' }, active: { type: 'bool' }, blocked: { type: 'bool' }, ...PAGE_PARAMS },
    paginated: true, shape: (_p, ctx) => (forAdmin(ctx) ? UserWithAdminWire : UserBasicWire), shapes: [UserBasicWire, UserWithAdminWire],
    summary: 'List users', tag,
  },
  {
    method: 'GET', path: '/users/:id', field: 'Query.user', params: USER_ID,
    shape: (_p, ctx) => (forAdmin(ctx) ? UserWithAdminWire : UserWire), shapes: [UserWire, UserWithAdminWire], summary: 'Get a user', tag,
  },
  {
    method: 'POST', path: '/users', field: 'Mutation.createUser',
    // Grape's declaration order (email, password, name, username) is the order of its error messages.
    params: { email: required('email'), password: required('password'), name: required('name'), username: required('username'), ...omit(ATTRS, ['email', 'password', 'name', 'username']) },
    shape: UserPublicWire, summary: 'Create a user (admin)', tag,
  },
  { method: 'PUT', path: '/users/:id', field: 'Mutation.updateUser', params: { ...USER_ID, ...ATTRS }, shape: UserPublicWire, summary: 'Update a user (admin)', tag },
  { method: 'DELETE', path: '/users/:id', field: 'Mutation.deleteUser', params: USER_ID, summary: 'Delete a user (admin)', tag },
]);
