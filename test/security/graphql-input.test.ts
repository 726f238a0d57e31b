import { createGroup } from '../support/factories';
import { ROOT_TOKEN, api, useTestApp } from '../support/test-app';

/** Malformed operations are 400 / BAD_USER_INPUT, never INTERNAL_SERVER_ERROR. */
const t = useTestApp({ reset: 'once' });

describe('GraphQL malformed input', () => {
  it('answers a subscription sent over HTTP with 400 and where to send it (WebSocket), an invalid one with its validation error', async () => {
    const res = await api(t, ROOT_TOKEN).graphql('subscription { auditEventAdded { id } }');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        message: 'Subscriptions are served over WebSocket (graphql-transport-ws) at this path',
        extensions: { code: 'BAD_REQUEST' },
      }),
    ]);
    const invalid = await api(t).graphql('subscription { groups { count } }');
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([
      expect.objectContaining({
        message: 'Cannot query field "groups" on type "Subscription".',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
    ]);
  });

  it('rejects a NUL byte in a nested field argument, as a literal and as a variable', async () => {
    const g = await createGroup(t, { path: 'nul-parent', visibility: 'public' });
    const literal = await api(t, ROOT_TOKEN).graphql(
      `{ group(id: "${g.id}") { subgroups(search: "a\\u0000b") { nodes { id } } } }`,
    );
    expect(literal.status).toBe(200);
    expect(literal.body.errors).toEqual([
      expect.objectContaining({ message: 'search is invalid', extensions: { code: 'BAD_USER_INPUT' } }),
    ]);
    const variable = await api(t).graphql(
      'query($s: String) { groups { nodes { subgroups(search: $s) { count } } } }',
      { s: 'x\u0000' },
    );
    expect(variable.body.errors[0]).toMatchObject({
      message: 'search is invalid',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const cursor = await api(t).graphql(`{ group(id: "${g.id}") { subgroups(after: "\\u0000") { nodes { id } } } }`);
    expect(cursor.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    // The same documents again (clean literal arguments are checked once per document): still refused,
    // and a variable's clean value in one request lets no NUL through in the next.
    const again = await api(t, ROOT_TOKEN).graphql(
      `{ group(id: "${g.id}") { subgroups(search: "a\\u0000b") { nodes { id } } } }`,
    );
    expect(again.body.errors).toEqual([
      expect.objectContaining({ message: 'search is invalid', extensions: { code: 'BAD_USER_INPUT' } }),
    ]);
    const doc = 'query($s: String) { groups { nodes { subgroups(search: $s, first: 5) { count } } } }';
    const clean = await api(t).graphql(doc, { s: 'nul' });
    expect([clean.body.errors, clean.body.data.groups.nodes.length > 0]).toEqual([undefined, true]);
    const dirty = await api(t).graphql(doc, { s: 'x\u0000' });
    expect(dirty.body.errors[0]).toMatchObject({
      message: 'search is invalid',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const literalClean = '{ groups { nodes { subgroups(search: "nul", first: 5) { count } } } }';
    for (let i = 0; i < 2; i += 1) expect((await api(t).graphql(literalClean)).body.errors).toBeUndefined();
  });

  it('rejects a NUL byte nested inside an input object and a list', async () => {
    const res = await api(t, ROOT_TOKEN).graphql(
      'mutation { groupCreate(input: { name: "N", path: "n-nul", description: "a\\u0000" }) { group { id } errors } }',
    );
    // A payload mutation reports bad input in its errors (GitLab's mutations); nothing is written.
    expect(res.body).toEqual({ data: { groupCreate: { group: null, errors: ['description is invalid'] } } });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/groups/n-nul')).status).toBe(404);
  });
});
