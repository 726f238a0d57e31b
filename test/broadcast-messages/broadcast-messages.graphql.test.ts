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
      `mutation { broadcastMessageCreate(input: { message: "Hello", color: "#123" }) { broadcastMessage { ${FIELDS} } errors } }`,
    );
    expect(created.body.data.broadcastMessageCreate.errors).toEqual([]);
    const m = created.body.data.broadcastMessageCreate.broadcastMessage as Gql;
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
      `{ broadcastMessages(first: 1) { count pageInfo { hasNextPage hasPreviousPage } nodes { ${FIELDS} } } }`,
    );
    const p = page.body.data.broadcastMessages;
    expect({ count: p.count, pageInfo: p.pageInfo }).toEqual({
      count: Number(restList.headers['x-total']),
      pageInfo: { hasNextPage: Number(restList.headers['x-total-pages']) > 1, hasPreviousPage: false },
    });
    expect(p.pageInfo.hasNextPage).toBe(true);
    expect(p.nodes.map(asRest)).toEqual(restList.body);
  });

  it('updates and deletes through the same service', async () => {
    await api(t, ROOT_TOKEN).graphql(
      'mutation { broadcastMessageCreate(input: { message: "x" }) { broadcastMessage { id } } }',
    );
    const updated = await api(t, ROOT_TOKEN).graphql(
      'mutation { broadcastMessageUpdate(input: { id: 1, endsAt: "2026-11-22T09:00:00-02:00", font: "" }) { broadcastMessage { endsAt font active } errors } }',
    );
    expect(updated.body.data.broadcastMessageUpdate).toEqual({
      broadcastMessage: {
        endsAt: '2026-11-22T11:00:00.000Z',
        font: '',
        active: true,
      },
      errors: [],
    });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages/1')).body).toMatchObject({
      ends_at: '2026-11-22T11:00:00.000Z',
      font: '',
    });
    expect(
      (await api(t, ROOT_TOKEN).graphql('mutation { broadcastMessageDelete(input: { id: 1 }) { errors } }')).body,
    ).toEqual({ data: { broadcastMessageDelete: { errors: [] } } });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages/1')).status).toBe(404);
  });

  it('answers with error codes (UNAUTHENTICATED, FORBIDDEN), null for a missing message, validation messages in errors', async () => {
    const user = await createUser(t);
    const code = async (token: string | undefined, query: string) => {
      const res = await api(t, token).graphql(query);
      // Root fields are nullable: the failing field is null, with its error.
      expect(Object.values(res.body.data)).toEqual([null]);
      return [res.body.errors[0].extensions.code, res.body.errors[0].message];
    };
    expect(await code(undefined, '{ broadcastMessages { count } }')).toEqual(['UNAUTHENTICATED', '401 Unauthorized']);
    expect(await code(user.token, '{ broadcastMessages { count } }')).toEqual(['FORBIDDEN', '403 Forbidden']);
    expect(
      await code(
        user.token,
        'mutation { broadcastMessageCreate(input: { message: "x" }) { broadcastMessage { id } } }',
      ),
    ).toEqual(['FORBIDDEN', '403 Forbidden']);
    // A missing message is null without an error (GitLab's convention for a root lookup); REST answers 404.
    expect((await api(t, ROOT_TOKEN).graphql('{ broadcastMessage(id: 9) { id } }')).body).toEqual({
      data: { broadcastMessage: null },
    });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages/9')).status).toBe(404);
    const soon = await api(t, ROOT_TOKEN).graphql(
      'mutation { broadcastMessageCreate(input: { message: "x", startsAt: "soon" }) { broadcastMessage { id } errors } }',
    );
    expect(soon.body).toEqual({
      data: { broadcastMessageCreate: { broadcastMessage: null, errors: ['starts_at is invalid'] } },
    });
    const color = await api(t, ROOT_TOKEN).graphql(
      'mutation { broadcastMessageCreate(input: { message: "x", color: "blue" }) { broadcastMessage { id } errors } }',
    );
    expect(color.body.errors).toBeUndefined();
    expect(color.body.data.broadcastMessageCreate.broadcastMessage).toBeNull();
    expect(JSON.stringify(color.body.data.broadcastMessageCreate.errors)).toContain('must be a valid color code');
  });

  it('a failed mutation stores nothing, also with other mutations in the same document', async () => {
    await api(t, ROOT_TOKEN).graphql(
      'mutation { broadcastMessageCreate(input: { message: "keep" }) { broadcastMessage { id } } }',
    );
    const res = await api(t, ROOT_TOKEN).graphql(`mutation {
      badUpdate: broadcastMessageUpdate(input: { id: 1, message: "changed", font: "nope" }) { broadcastMessage { id } errors }
      bad: broadcastMessageCreate(input: { message: "x", color: "bad" }) { broadcastMessage { id } errors }
    }`);
    // Each mutation runs in turn, each failure reports its own errors and a null result.
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      badUpdate: { broadcastMessage: null, errors: [expect.any(String)] },
      bad: { broadcastMessage: null, errors: [expect.any(String)] },
    });
    const rest = (await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages')).body;
    expect(rest.map((m: { message: string; font: string }) => [m.message, m.font])).toEqual([['keep', '#FFFFFF']]);
  });
});
