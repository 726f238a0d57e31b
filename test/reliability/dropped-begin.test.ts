import 'reflect-metadata';
import net from 'node:net';
import pino from 'pino';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp } from '../../src/app';
import { initOrm, type Orm } from '../../src/core/db/orm';
import { ormModelOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { EXTERNAL_URL, ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';

// A connection lost exactly when a write's transaction begins (a PostgreSQL killed or a network cut
// at that moment, as CI once hit in db-faults.test.ts). knex drops the failed BEGIN's error and
// answers the transaction's next statement with "Transaction query already complete"; the service
// must answer that as the database being unavailable (503, nothing written), not as its own failure.
// A TCP proxy between the service and PostgreSQL closes the connection that sends the next BEGIN.

const t = useTestApp({ reset: 'once' });
let proxy: net.Server;
let dropNextBegin = false;
let dropped = 0;
let orm: Orm;
let app: Express;
let stop: () => Promise<void>;
const unexpected: string[] = [];

beforeAll(async () => {
  const target = new URL(t.orm.config.get('clientUrl')!);
  proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      // A simple-protocol Query message ('Q', length, text): knex sends BEGIN so.
      if (dropNextBegin && chunk[0] === 0x51 && chunk.includes('BEGIN')) {
        dropNextBegin = false;
        dropped += 1;
        cut();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('error', cut).on('close', cut);
    upstream.on('error', cut).on('close', cut);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const via = new URL(target);
  via.hostname = '127.0.0.1';
  via.port = String((proxy.address() as net.AddressInfo).port);
  orm = await initOrm({ clientUrl: via.toString(), poolMax: 2, model: ormModelOf(MODULES) });
  const logger = pino({ level: 'warn' }, { write: (line: string) => { if (line.includes('"msg":"unexpected error"')) unexpected.push(line); } });
  ({ app, stop } = await buildApp({ orm, logger, externalUrl: EXTERNAL_URL, secrets: TEST_SECRETS, modules: MODULES }));
});

afterAll(async () => {
  await stop?.();
  await orm?.close(true);
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
});

async function groupPaths(): Promise<string[]> {
  const rows = await t.orm.em.fork().getConnection().execute<{ path: string }[]>(`select path from namespaces where kind = 'group' order by path`);
  return rows.map((r) => r.path);
}

describe('a connection lost as a transaction begins', () => {
  it('REST: 503 with the usual body, nothing written, and the next request succeeds', async () => {
    const before = dropped;
    dropNextBegin = true;
    const res = await request(app).post('/api/v4/groups').set('PRIVATE-TOKEN', ROOT_TOKEN).send({ name: 'cut', path: 'cut' });
    expect(dropped).toBe(before + 1);
    expect({ status: res.status, body: res.body, unexpected }).toEqual({ status: 503, body: { message: '503 Service Unavailable' }, unexpected: [] });
    expect(await groupPaths()).toEqual([]);
    const again = await request(app).post('/api/v4/groups').set('PRIVATE-TOKEN', ROOT_TOKEN).send({ name: 'cut', path: 'cut' });
    expect(again.status).toBe(201);
    expect(await groupPaths()).toEqual(['cut']);
  });

  it('GraphQL: a SERVICE_UNAVAILABLE field error, nothing written', async () => {
    const before = dropped;
    dropNextBegin = true;
    const res = await request(app).post('/graphql').set('PRIVATE-TOKEN', ROOT_TOKEN)
      .send({ query: 'mutation { groupCreate(input: { name: "gql", path: "gql" }) { group { fullPath } errors } }' });
    expect(dropped).toBe(before + 1);
    // Noticed while the operation ran: a field error, as README "Timeouts and outages" says (HTTP 200).
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { groupCreate: null },
      errors: [{ message: '503 Service Unavailable', locations: [{ line: 1, column: 12 }], path: ['groupCreate'], extensions: { code: 'SERVICE_UNAVAILABLE' } }],
    });
    expect(unexpected).toEqual([]);
    expect((await groupPaths()).filter((p) => p === 'gql')).toEqual([]);
  });
});
