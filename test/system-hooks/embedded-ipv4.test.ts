import os from 'node:os';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * The system hooks' SSRF guard on IPv6 spellings that embed an IPv4 address (IPv4-compatible, mapped,
 * translated, NAT64, 6to4): judged as the IPv4 address they reach, when a hook is saved and when it is
 * delivered (docs/security.md#ssrf-system-hook-urls). No test here delivers anywhere: refused deliveries stop
 * before connecting, and hooks with public addresses are deleted at once, while no event exists.
 */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const allowLocal = (on: boolean) =>
  admin().put('/api/v4/application/settings').send({ allow_local_requests_from_system_hooks: on }).expect(200);

const LOCALHOST = { message: { url: ['is blocked: Requests to localhost are not allowed'] } };
const LOCAL_NETWORK = { message: { url: ['is blocked: Requests to the local network are not allowed'] } };
const refused = async (url: string) => (await admin().post('/api/v4/hooks').send({ url }).expect(400)).body as unknown;

describe('POST /hooks with an IPv6 address that embeds an IPv4 one', () => {
  it("refuses each embedded spelling of a loopback address with the guard's message", async () => {
    for (const url of [
      'http://[::127.0.0.1]/x', // IPv4-compatible
      'http://[::ffff:0:127.0.0.1]/x', // translated
      'http://[64:ff9b::127.0.0.1]/x', // NAT64
      'http://[64:ff9b:1::7f00:1]:8080/x', // local-use NAT64
      'http://[2002:7f00:1::]/x', // 6to4
      'http://[::7f00:1]/x',
      'http://[0:0:0:0:ffff:0:7f00:0001]/x',
    ])
      expect([url, await refused(url)]).toEqual([url, LOCALHOST]);
  });

  it('refuses each embedded spelling of a private, link-local or shared address', async () => {
    for (const url of [
      'http://[::10.0.0.1]/x',
      'http://[::ffff:0:169.254.169.254]/latest/meta-data',
      'http://[64:ff9b::192.168.1.1]/x',
      'http://[64:ff9b:1::100.64.0.1]/x',
      'http://[2002:c0a8:0101::1]/x',
      'http://[2002:ac10:0001::]/x',
    ])
      expect([url, await refused(url)]).toEqual([url, LOCAL_NETWORK]);
    expect((await admin().get('/api/v4/hooks').expect(200)).body).toEqual([]);
  });

  it('is refused the same way on GraphQL', async () => {
    const res = await admin()
      .graphql('mutation($url: String!) { systemHookCreate(input: { url: $url }) { systemHook { id } errors } }', {
        url: 'http://[64:ff9b::127.0.0.1]/x',
      })
      .expect(200);
    expect(res.body).toEqual({
      data: {
        systemHookCreate: { systemHook: null, errors: ['Url is blocked: Requests to localhost are not allowed'] },
      },
    });
    expect((await admin().get('/api/v4/hooks').expect(200)).body).toEqual([]);
  });

  it("still refuses the forms it refused before: decimal, octal, hex, short and mapped IPv4, localhost., this host's name", async () => {
    for (const url of [
      'http://2130706433/x',
      'http://0177.0.0.1/x',
      'http://0x7f.0.0.1/x',
      'http://127.1/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[::1]/x',
      'http://[::]/x',
    ]) {
      expect([url, await refused(url)]).toEqual([url, LOCALHOST]);
    }
    // Names: refused as local, or as unresolvable where the resolver does not answer them.
    const nameRefusal = {
      message: {
        url: [
          expect.stringMatching(
            /^is blocked: (Requests to localhost are not allowed|Requests to the local network are not allowed|Host cannot be resolved or invalid)$/,
          ),
        ],
      },
    };
    for (const url of ['http://localhost./x', `http://${os.hostname()}/x`])
      expect([url, await refused(url)]).toEqual([url, nameRefusal]);
  });

  it('accepts a public IPv4 address embedded in NAT64 and 6to4 addresses (saved, then deleted before any event exists)', async () => {
    // No event can be delivered to these hooks: the outbox is empty and nothing in this test writes an event.
    expect(await t.orm.em.getConnection().execute('select count(*)::int as n from system_hook_events')).toEqual([
      { n: 0 },
    ]);
    for (const url of ['http://[64:ff9b::8.8.8.8]/x', 'http://[2002:0808:0808::]/x', 'http://[::ffff:0:8.8.4.4]/x']) {
      const hook = (await admin().post('/api/v4/hooks').send({ url }).expect(201)).body;
      await admin().delete(`/api/v4/hooks/${hook.id}`).expect(204);
      expect(hook.url).toBe(url);
    }
    expect(await t.orm.em.getConnection().execute('select count(*)::int as n from system_hook_logs')).toEqual([
      { n: 0 },
    ]);
  });
});

describe('delivery to an IPv6 address that embeds a loopback one', () => {
  it('is refused before connecting once local requests are switched off, and logged', async () => {
    await allowLocal(true);
    const hook = (await admin().post('/api/v4/hooks').send({ url: 'http://[::ffff:0:127.0.0.1]:9/x' }).expect(201))
      .body;
    await allowLocal(false);
    // GitLab 10.3's test request sends now: the address is checked again at this moment.
    expect((await admin().get(`/api/v4/hooks/${hook.id}`).expect(200)).body.event_name).toBe('project_create');
    const logs = (await admin().get(`/api/v4/hooks/${hook.id}/events`).expect(200)).body as Record<string, unknown>[];
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      response_status: null,
      internal_error_message: 'is blocked: Requests to localhost are not allowed',
    });
  });
});

describe('POST /hooks with a host name', () => {
  it('saves a name that does not resolve (checked again at delivery) and refuses local names before DNS', async () => {
    // RFC 6761: `.invalid` never resolves, wherever the suite runs.
    const saved = await admin().post('/api/v4/hooks').send({ url: 'http://hooks.example.invalid/x' }).expect(201);
    expect(saved.body).toMatchObject({ url: 'http://hooks.example.invalid/x' });
    await admin().delete(`/api/v4/hooks/${saved.body.id}`).expect(204);
    for (const url of ['http://app.localhost/x', 'http://LOCALHOST./x'])
      expect([url, await refused(url)]).toEqual([url, LOCALHOST]);
  });
});
