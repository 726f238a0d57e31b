import { ConfigError, loadConfig } from '../../src/config';
import { redactSql, serializeError } from '../../src/core/errors/redact-sql';
import { isDatabaseUnavailable } from '../../src/core/errors/driver-errors';
import { toRestError } from '../../src/core/errors/rest-error';
import { formatGraphQLError } from '../../src/core/errors/graphql-error';
import { DatabaseUnavailableError } from '../../src/core/errors/domain-errors';
import { GraphQLError } from 'graphql';
import { ipAllowed, isCidr } from '../../src/ops/ip-whitelist';

describe('redactSql', () => {
  it('replaces literals and key values, keeps identifiers', () => {
    const msg = `insert into "personal_access_tokens" ("token_digest", "user_id", "name") values ('3f9a''x', 12, 'ci') returning "id" - duplicate key value violates unique constraint "pat_digest_uniq"`;
    expect(redactSql(msg)).toBe(
      `insert into "personal_access_tokens" ("token_digest", "user_id", "name") values (?, ?, ?) returning "id" - duplicate key value violates unique constraint "pat_digest_uniq"`,
    );
    expect(redactSql('Key (email)=(root@example.com) already exists.')).toBe('Key (email)=(?) already exists.');
    expect(redactSql(`select "u0".* from "users" as "u0" where "u0"."id" = 7 limit 20`)).toBe(
      `select "u0".* from "users" as "u0" where "u0"."id" = ? limit ?`,
    );
  });

  it('serializes only name, redacted message and stack, and the code', () => {
    const err = Object.assign(new Error(`select 1 where x = 'secret'`), { code: '42703', parameters: ['secret'] });
    const out = serializeError(err) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual(['code', 'message', 'stack', 'type']);
    expect(JSON.stringify(out)).not.toContain('secret');
  });
});

describe('database-unavailable errors', () => {
  it('recognises driver errors that mean the server is unreachable', () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('x', { cause: new Error('Connection terminated unexpectedly') }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error('column "x" does not exist'), { code: '42703' }))).toBe(false);
  });

  it('maps to 503 on REST and SERVICE_UNAVAILABLE on GraphQL', () => {
    expect(toRestError(new DatabaseUnavailableError())).toEqual({
      status: 503,
      body: { message: '503 Service Unavailable' },
    });
    const driver = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const formatted = formatGraphQLError({ message: 'x' }, new GraphQLError('x', { originalError: driver }));
    expect(formatted).toEqual({
      message: '503 Service Unavailable',
      locations: undefined,
      path: undefined,
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
  });
});

describe('MONITORING_WHITELIST parsing and matching', () => {
  it('defaults to loopback and matches IPv4, mapped IPv4 and IPv6', () => {
    const list = loadConfig({}).monitoringWhitelist;
    expect(list).toEqual(['127.0.0.0/8', '::1/128']);
    expect(ipAllowed('127.0.0.1', list)).toBe(true);
    expect(ipAllowed('::ffff:127.0.0.1', list)).toBe(true);
    expect(ipAllowed('::1', list)).toBe(true);
    expect(ipAllowed('10.0.0.1', list)).toBe(false);
    expect(ipAllowed('10.9.8.7', ['10.0.0.0/8', '192.168.1.5'])).toBe(true);
    expect(ipAllowed('192.168.1.5', ['10.0.0.0/8', '192.168.1.5'])).toBe(true);
    expect(ipAllowed(undefined, list)).toBe(false);
  });

  it('rejects malformed entries at start-up', () => {
    expect(isCidr('10.0.0.0/33')).toBe(false);
    expect(isCidr('fe80::/10')).toBe(true);
    expect(() => loadConfig({ MONITORING_WHITELIST: '10.0.0.0/8, example.com' })).toThrow(ConfigError);
  });
});

describe('database timeouts', () => {
  it('have documented defaults and can be configured', () => {
    expect(loadConfig({}).db).toEqual({
      poolMax: 10,
      acquireTimeoutMs: 2000,
      connectTimeoutMs: 2000,
      statementTimeoutMs: 15000,
      probeIntervalMs: 1000,
    });
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '500' }).db.statementTimeoutMs).toBe(500);
    expect(() => loadConfig({ DB_POOL_ACQUIRE_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
  });
});
