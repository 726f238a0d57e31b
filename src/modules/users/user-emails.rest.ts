import { defineRoutes, type ParamException } from '../../rest/route';
import { EmailWire } from '../emails';

// Path ids beyond int4 are the 404 of what they name, as any unknown id.
const USER: Record<string, ParamException> = { id: { arg: 'userId', notFound: 'User' } };
const EMAIL: Record<string, ParamException> = { email_id: { notFound: 'Email' } };
const tag = 'emails';

/** GitLab 10.3's secondary e-mail routes (lib/api/users.rb); who may call each is its field's @Allow. */
export const userEmailRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/users/:id/emails',
    field: 'Query.userEmails',
    params: USER,
    paginated: true,
    shape: EmailWire,
    summary: "List a user's secondary e-mail addresses (admin)",
    tag,
  },
  {
    method: 'POST',
    path: '/users/:id/emails',
    field: 'Mutation.createUserEmail',
    params: USER,
    shape: EmailWire,
    summary: 'Add a secondary e-mail address to a user (admin)',
    tag,
  },
  {
    method: 'DELETE',
    path: '/users/:id/emails/:email_id',
    field: 'Mutation.deleteUserEmail',
    params: { ...USER, ...EMAIL },
    summary: "Delete a user's secondary e-mail address (admin)",
    tag,
  },
  {
    method: 'GET',
    path: '/user/emails',
    field: 'Query.currentUserEmails',
    paginated: true,
    shape: EmailWire,
    summary: "List the authenticated user's secondary e-mail addresses",
    tag,
  },
  {
    method: 'GET',
    path: '/user/emails/:email_id',
    field: 'Query.currentUserEmail',
    params: EMAIL,
    shape: EmailWire,
    summary: 'Get one secondary e-mail address of the authenticated user',
    tag,
  },
  {
    method: 'POST',
    path: '/user/emails',
    field: 'Mutation.createCurrentUserEmail',
    shape: EmailWire,
    summary: 'Add a secondary e-mail address to the authenticated user',
    tag,
  },
  {
    method: 'DELETE',
    path: '/user/emails/:email_id',
    field: 'Mutation.deleteCurrentUserEmail',
    params: EMAIL,
    summary: 'Delete a secondary e-mail address of the authenticated user',
    tag,
  },
]);
