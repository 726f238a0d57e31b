import type { RequestCtx } from '../../core/context/request-ctx';
import { defineRoutes, type ParamException } from '../../rest/route';
import { UserBasicWire, UserPublicWire, UserWire, UserWithAdminWire } from './user.presenter';
import { policy } from '../access/policy';

const forAdmin = (ctx: RequestCtx) => policy.isAdmin(ctx.user);

const USER_ID: Record<string, ParamException> = { id: { notFound: 'User' } };
const tag = 'users';

export const userRoutes = defineRoutes([
  {
    method: 'GET', path: '/user', field: 'Query.currentUser',
    shape: (_p, ctx) => (forAdmin(ctx) ? UserWithAdminWire : UserPublicWire), shapes: [UserPublicWire, UserWithAdminWire],
    summary: 'The authenticated user', tag,
  },
  {
    method: 'GET', path: '/users', field: 'Query.users',
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
    params: { email: { required: true }, password: { required: true }, name: { required: true }, username: { required: true } },
    shape: UserPublicWire, summary: 'Create a user (admin)', tag,
  },
  { method: 'PUT', path: '/users/:id', field: 'Mutation.updateUser', params: USER_ID, shape: UserPublicWire, summary: 'Update a user (admin)', tag },
  { method: 'DELETE', path: '/users/:id', field: 'Mutation.deleteUser', params: USER_ID, summary: 'Delete a user (admin)', tag },
]);
