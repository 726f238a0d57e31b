import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** broadcastMessages(active) for a dashboard's banner list. */
const t = useTestApp();

describe('broadcastMessages(active)', () => {
  it('true: the messages shown now; false: the others; omitted: all', async () => {
    const admin = api(t, ROOT_TOKEN);
    const now = Date.now();
    const iso = (ms: number) => new Date(now + ms).toISOString();
    const live = (
      await admin
        .post('/api/v4/broadcast_messages')
        .send({ message: 'live', starts_at: iso(-60_000), ends_at: iso(3_600_000) })
        .expect(201)
    ).body;
    const past = (
      await admin
        .post('/api/v4/broadcast_messages')
        .send({ message: 'past', starts_at: iso(-7_200_000), ends_at: iso(-3_600_000) })
        .expect(201)
    ).body;
    const future = (
      await admin
        .post('/api/v4/broadcast_messages')
        .send({ message: 'future', starts_at: iso(3_600_000), ends_at: iso(7_200_000) })
        .expect(201)
    ).body;
    const ids = async (arg: string) =>
      (
        (await admin.graphql(`{ broadcastMessages${arg} { count nodes { id: databaseId active } } }`).expect(200)).body
          .data.broadcastMessages.nodes as { id: number }[]
      ).map((m) => m.id);
    expect(await ids('(active: true)')).toEqual([live.id]);
    expect(await ids('(active: false)')).toEqual([future.id, past.id]);
    expect(await ids('')).toEqual([future.id, past.id, live.id]);
    const rest = (await admin.get('/api/v4/broadcast_messages?active=true').expect(200)).body as { id: number }[];
    expect(rest.map((m) => m.id)).toEqual([live.id]);
  });
});
