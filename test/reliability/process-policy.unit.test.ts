import { EventEmitter } from 'node:events';
import { loadConfig, ConfigError } from '../../src/config';
import { createLogger } from '../../src/core/logger';
import { currentRequest, withRequestContext } from '../../src/core/http/request-id';
import { installProcessPolicy, processErrorsTotal } from '../../src/ops/process-policy';
import { restartDelay } from '../../src/ops/supervisor';

type Line = Record<string, unknown> & {
  level: number;
  msg: string;
  err?: { type: string; message: string; stack?: string };
};

function policyUnderTest() {
  const lines: Line[] = [];
  const logger = createLogger('info', { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  const target = new EventEmitter();
  const stop = jest.fn();
  const exit = jest.fn();
  installProcessPolicy({ logger, stop, exit, target, hardExitMs: 60_000 });
  return { lines, target, stop, exit };
}

const count = async (kind: string) =>
  (await processErrorsTotal.get()).values.find((v) => v.labels.kind === kind)?.value ?? 0;

/** Runs `fn` as the request middleware does (app.ts), continuations included. */
const inRequest = (url: string, fn: () => void) => withRequestContext({ id: 'req-77', method: 'POST', url }, fn);

describe('request context', () => {
  it('is the request id, method and path without the query string, in every continuation', async () => {
    const seen = await new Promise((resolve) =>
      inRequest('/api/v4/runners?private_token=glpat-secret', () =>
        setTimeout(() => void Promise.resolve().then(() => resolve(currentRequest())), 1),
      ),
    );
    expect(seen).toEqual({ reqId: 'req-77', method: 'POST', path: '/api/v4/runners' });
    expect(currentRequest()).toBeUndefined();
  });
});

describe('process-level error policy', () => {
  it('logs an unhandled rejection once at error with its request, counts it and keeps serving', async () => {
    const { lines, target, stop, exit } = policyUnderTest();
    const before = await count('unhandled_rejection');
    const err = new Error(`insert into "t" values ('secret-literal')`);
    inRequest('/graphql?query=x', () => void target.emit('unhandledRejection', err, Promise.resolve()));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'unhandled promise rejection; the process keeps serving',
      reqId: 'req-77',
      method: 'POST',
      path: '/graphql',
    });
    expect(lines[0].err).toMatchObject({ type: 'Error', message: `insert into "t" values (?)` });
    expect(lines[0].err?.stack).toContain('process-policy.unit.test.ts');
    expect(JSON.stringify(lines)).not.toContain('secret-literal');
    expect(await count('unhandled_rejection')).toBe(before + 1);
    expect(stop).not.toHaveBeenCalled();
    expect(exit).not.toHaveBeenCalled();
  });

  it('logs a rejection with a non-Error reason as short text, without its request outside one', () => {
    const { lines, target } = policyUnderTest();
    target.emit('unhandledRejection', { token: 'glpat-secret' }, Promise.resolve());
    expect(lines[0]).toMatchObject({ level: 50, err: { type: 'object', message: '[object Object]' } });
    expect(lines[0]).not.toHaveProperty('reqId');
    expect(JSON.stringify(lines)).not.toContain('glpat-secret');
  });

  it('logs an uncaught exception at fatal with its request and stops the process once', async () => {
    const { lines, target, stop, exit } = policyUnderTest();
    const before = await count('uncaught_exception');
    inRequest(
      '/api/v4/projects/1/pages/domains?x=1',
      () => void target.emit('uncaughtException', new Error('Cannot convert 0x to a BigInt'), 'uncaughtException'),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 60,
      reqId: 'req-77',
      method: 'POST',
      path: '/api/v4/projects/1/pages/domains',
      origin: 'uncaughtException',
      err: { message: 'Cannot convert 0x to a BigInt' },
    });
    expect(stop).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    expect(await count('uncaught_exception')).toBe(before + 1);

    // A second one while stopping: no second stop, exit 1 at once.
    target.emit('uncaughtException', new Error('again'), 'uncaughtException');
    expect(stop).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(1);
    expect(lines[1]).toMatchObject({ level: 60, msg: 'uncaught exception while stopping; exiting now' });
  });
});

describe('supervisor restart delay (workers that died before they listened; serving ones are replaced at once)', () => {
  it('replaces at once while start-up failures in the last minute do not exceed the worker count', () => {
    expect([1, 2].map((d) => restartDelay(d, 2))).toEqual([0, 0]);
    expect(restartDelay(1, 1)).toBe(0);
  });

  it('backs off from 0.5 s, doubling up to 30 s, for a start-up crash loop', () => {
    expect([3, 4, 5, 6, 8, 9, 20].map((d) => restartDelay(d, 2))).toEqual([500, 1000, 2000, 4000, 16000, 30000, 30000]);
    expect(restartDelay(2, 1)).toBe(500);
  });
});

describe('WORKERS', () => {
  it('defaults to one per core and accepts 0 to 64', () => {
    expect(loadConfig({}).workers).toBeGreaterThanOrEqual(1);
    expect(loadConfig({ WORKERS: '0' }).workers).toBe(0);
    expect(loadConfig({ WORKERS: '64' }).workers).toBe(64);
  });

  it.each(['-1', '1.5', 'two', '65', '1e2'])('refuses %p with a configuration error', (value) => {
    expect(() => loadConfig({ WORKERS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ WORKERS: value })).toThrow(
      `WORKERS must be an integer from 0 to 64 (0: one process without a supervisor), got "${value}"`,
    );
  });
});
