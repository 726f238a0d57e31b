import { createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const t = useTestApp({ clock: { now: () => NOW } });

const FIELDS = 'id: databaseId message startsAt endsAt color font active';
type Gql = {
  id: number;
  message: string;
  startsAt: string;
  endsAt: string;
  color: string;
  font: string;
  active: boolean;
};
const asRest = (m: Gql) => ({
  id: m.id,
  message: m.message,
  starts_at: m.startsAt,
  ends_at: m.endsAt,
  color: m.color,
  font: m.font,
  active: m.active,
});

describe('GraphQL broadcast messages', () => {
  it('shows the same values as REST for one message and for a page', async () => {
    const created = await api(t, ROOT_TOKEN).graphql(
      `mutation { createBroadcastMessage(input: { message: "Hello", color: "#123" }) { ${FIELDS} } }`,
    );
    const m = created.body.data.createBroadcastMessage as Gql;
    expect(m).toEqual({
      id: 1,
      message: 'Hello',
      startsAt: '2026-11-22T10:00:00.000Z',
      endsAt: '2026-11-22T11:00:00.000Z',
      color: '#123',
      font: '#FFFFFF',
      active: true,
    });
    await api(t, ROOT_TOKEN)
      .post('/api/v4/broadcast_messages')
      .send({ message: 'Second', starts_at: '2020-01-01T00:00:00Z', ends_at: '2020-01-02T00:00:00Z' })
      .expect(201);
    const rest = (await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages/1')).body;
    const one = await api(t, ROOT_TOKEN).graphql(`{ broadcastMessage(id: 1) { ${FIELDS} } }`);
    expect(asRest(one.body.data.broadcastMessage)).toEqual(rest);
    const restList = await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages?per_page=1');
    const page = await api(t, ROOT_TOKEN).graphql(
      `{ broadcastMessages(perPage: 1) { total totalPages page perPage nodes { ${FIELDS} } } }`,
    );
    const p = page.body.data.broadcastMessages;
    expect({ total: p.total, totalPages: p.totalPages, page: p.page, perPage: p.perPage }).toEqual({
      total: Number(restList.headers['x-total']),
      totalPages: Number(restList.headers['x-total-pages']),
      page: 1,
      perPage: 1,
    });
    expect(p.nodes.map(asRest)).toEqual(restList.body);
  });

  it('updates and deletes through the same service', async () => {
    await api(t, ROOT_TOKEN).graphql('mutation { createBroadcastMessage(input: { message: "x" }) { id } }');
    const updated = await api(t, ROOT_TOKEN).graphql(
      'mutation { updateBroadcastMessage(id: 1, input: { endsAt: "2026-11-22T09:00:00-02:00", font: "" }) { endsAt font active } }',
    );
    expect(updated.body.data.updateBroadcastMessage).toEqual({
      endsAt: '2026-11-22T11:00:00.000Z',
      font: '',
      active: true,
    });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages/1')).body).toMatchObject({
      ends_at: '2026-11-22T11:00:00.000Z',
      font: '',
    });
    expect(
      (await api(t, ROOT_TOKEN).graphql('mutation { deleteBroadcastMessage(id: 1) }')).body.data.deleteBroadcastMessage,
    ).toBe(true);
    expect((await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages/1')).status).toBe(404);
  });

  it('answers with error codes: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, BAD_USER_INPUT', async () => {
    const user = await createUser(t);
    const code = async (token: string | undefined, query: string) => {
      const res = await api(t, token).graphql(query);
      // Root fields are nullable: the failing field is null, with its error.
      expect(Object.values(res.body.data)).toEqual([null]);
      return [res.body.errors[0].extensions.code, res.body.errors[0].message];
    };
    expect(await code(undefined, '{ broadcastMessages { total } }')).toEqual(['UNAUTHENTICATED', '401 Unauthorized']);
    expect(await code(user.token, '{ broadcastMessages { total } }')).toEqual(['FORBIDDEN', '403 Forbidden']);
    expect(await code(user.token, 'mutation { createBroadcastMessage(input: { message: "x" }) { id } }')).toEqual([
      'FORBIDDEN',
      '403 Forbidden',
    ]);
    expect(await code(ROOT_TOKEN, '{ broadcastMessage(id: 9) { id } }')).toEqual(['NOT_FOUND', '404 Not found']);
    expect(
      await code(ROOT_TOKEN, 'mutation { createBroadcastMessage(input: { message: "x", startsAt: "soon" }) { id } }'),
    ).toEqual(['BAD_USER_INPUT', 'starts_at is invalid']);
    const color = await api(t, ROOT_TOKEN).graphql(
      'mutation { createBroadcastMessage(input: { message: "x", color: "blue" }) { id } }',
    );
    expect(color.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(color.body.errors[0])).toContain('must be a valid color code');
  });

  it('a failed mutation stores nothing, also with other mutations in the same document', async () => {
    await api(t, ROOT_TOKEN).graphql('mutation { createBroadcastMessage(input: { message: "keep" }) { id } }');
    const res = await api(t, ROOT_TOKEN).graphql(`mutation {
      badUpdate: updateBroadcastMessage(id: 1, input: { message: "changed", font: "nope" }) { id }
      bad: createBroadcastMessage(input: { message: "x", color: "bad" }) { id }
    }`);
    // Nullable root fields: each mutation runs in turn, each failure nulls only its own field.
    expect(res.body.data).toEqual({ badUpdate: null, bad: null });
    expect(res.body.errors.map((e: { path: string[] }) => e.path[0])).toEqual(['badUpdate', 'bad']);
    const rest = (await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages')).body;
    expect(rest.map((m: { message: string; font: string }) => [m.message, m.font])).toEqual([['keep', '#FFFFFF']]);
  });
});
