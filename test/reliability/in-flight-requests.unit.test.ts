import { EventEmitter } from 'node:events';
import { createLogger } from '../../src/core/logger';
import { watchRequests, type WatchedRequest, type WatchedResponse } from '../../src/ops/in-flight-requests';
import type { RequestRecord, WorkerMessage } from '../../src/ops/worker-messages';

// What a worker tells the supervisor about its requests (src/ops/in-flight-requests.ts): nothing for
// an ordinary request; large, slow and heap-heavy ones once, with updates and a done notice.

const MB = 1024 * 1024;

function watchUnderTest() {
  const sent: WorkerMessage[] = [];
  const warnings: Record<string, unknown>[] = [];
  const logger = createLogger('info', {
    write: (s: string) => void warnings.push(JSON.parse(s) as Record<string, unknown>),
  });
  let clock = 1_000_000;
  let heapUsed = 100 * MB;
  const heap = jest.fn(() => ({ used: heapUsed, limit: 480 * MB }));
  const watch = watchRequests({ logger, send: (m) => void sent.push(m), heap, now: () => clock, intervalMs: 0 });
  return {
    watch,
    sent,
    warnings,
    heap,
    advance: (ms: number) => (clock += ms),
    setHeapMb: (mb: number) => (heapUsed = mb * MB),
    startedAt: () => clock,
  };
}

/** A request as node and express present it, and its response. */
function request(method: string, url: string, headers: Record<string, string> = {}) {
  const req = Object.assign(new EventEmitter(), {
    method,
    url,
    originalUrl: url,
    headers,
    id: `req-${url.length}`,
    ip: '10.0.0.7',
  }) as EventEmitter & WatchedRequest;
  const res = Object.assign(new EventEmitter(), { req, locals: {} as Record<string, unknown> }) as EventEmitter &
    WatchedResponse;
  return { req, res, close: () => res.emit('close') };
}

const records = (sent: WorkerMessage[]): RequestRecord[] => sent.flatMap((m) => ('requests' in m ? m.requests : []));

describe('in-flight request reports', () => {
  it('sends nothing for a small, quick request, and does not read the heap while nothing is in flight', () => {
    const t = watchUnderTest();
    const r = request('GET', '/api/v4/groups?private_token=glpat-secret', { 'private-token': 'glpat-secret' });
    t.watch.track(r.req, r.res);
    t.advance(200);
    t.watch.check();
    r.close();
    t.watch.check();
    expect(t.sent).toEqual([]);
    expect(t.heap).toHaveBeenCalledTimes(1);
  });

  it('reports a large body when the request starts, updates it with the user once the body is read, and says when it is done', () => {
    const t = watchUnderTest();
    const r = request('PUT', '/api/v4/application/settings?private_token=glpat-secret', {
      'content-length': String(70_000),
      'private-token': 'glpat-secret',
    });
    const startedAt = t.startedAt();
    t.watch.track(r.req, r.res);
    expect(t.sent).toEqual([
      {
        supervisor: 'gitlab-admin:requests',
        requests: [
          {
            ref: 1,
            reqId: r.req.id,
            method: 'PUT',
            path: '/api/v4/application/settings',
            token: true,
            ip: '10.0.0.7',
            bytes: 70_000,
            startedAt,
            why: 'large',
          },
        ],
      },
    ]);
    r.req.userId = 7;
    r.req.emit('end');
    expect(records(t.sent)[1]).toMatchObject({ ref: 1, userId: 7, why: 'large' });
    expect(records(t.sent)[1]).not.toHaveProperty('token');
    r.close();
    expect(t.sent[2]).toEqual({ supervisor: 'gitlab-admin:request-done', ref: 1 });
    expect(JSON.stringify(t.sent)).not.toContain('glpat-secret');
  });

  it('reports a body of unknown length (chunked) as large, with no size', () => {
    const t = watchUnderTest();
    const r = request('POST', '/graphql', { 'transfer-encoding': 'chunked' });
    t.watch.track(r.req, r.res);
    expect(records(t.sent)).toEqual([expect.objectContaining({ bytes: null, why: 'large' })]);
  });

  it('reports a slow request once, then only what the app learnt about it (user, route)', () => {
    const t = watchUnderTest();
    const r = request('POST', '/graphql', { 'content-length': '120' });
    t.watch.track(r.req, r.res);
    t.advance(999);
    t.watch.check();
    expect(t.sent).toEqual([]);
    t.advance(1);
    t.watch.check();
    expect(records(t.sent)).toEqual([expect.objectContaining({ ref: 1, path: '/graphql', bytes: 120, why: 'slow' })]);
    expect(records(t.sent)[0]).not.toHaveProperty('userId');
    t.watch.check();
    expect(t.sent).toHaveLength(1);
    r.req.userId = null; // anonymous
    r.res.locals!.route = 'graphql query groups';
    t.watch.check();
    expect(records(t.sent)[1]).toMatchObject({ ref: 1, userId: null, route: 'graphql query groups', why: 'slow' });
  });

  it('reports every request in flight while the heap is above its high-water mark, and warns once per crossing', () => {
    const t = watchUnderTest();
    const quick = request('GET', '/api/v4/user');
    const slow = request('GET', '/api/v4/projects');
    t.watch.track(slow.req, slow.res);
    t.advance(1500);
    t.watch.check();
    t.watch.track(quick.req, quick.res);
    t.setHeapMb(300); // above 60 % of 480 MB
    t.watch.check();
    expect(t.sent[1]).toEqual({
      supervisor: 'gitlab-admin:requests',
      heap: { usedMb: 300, limitMb: 480 },
      requests: [
        expect.objectContaining({ ref: 1, path: '/api/v4/projects', why: 'heap' }),
        expect.objectContaining({ ref: 2, path: '/api/v4/user', why: 'heap' }),
      ],
    });
    const warning = {
      level: 40,
      msg: 'heap above 60 % of its limit; the requests in flight were reported to the supervisor',
      heap: { usedMb: 300, limitMb: 480 },
    };
    expect(t.warnings).toEqual([expect.objectContaining(warning)]);
    expect(t.warnings[0].inFlight).toEqual([
      expect.objectContaining({ path: '/api/v4/projects', ageMs: 1500 }),
      expect.objectContaining({ path: '/api/v4/user', ageMs: 0 }),
    ]);

    t.watch.check();
    expect(t.sent).toHaveLength(2);
    t.setHeapMb(200); // below 50 %: armed again
    t.watch.check();
    t.setHeapMb(320);
    t.watch.check();
    expect(t.warnings).toHaveLength(2);
  });
});
