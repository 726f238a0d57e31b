import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { ReflectMetadataProvider } from '@mikro-orm/core';
import { redactSql } from '../errors/redact-sql';
import type { OrmModel } from '../module/app-module';
import { MIGRATIONS } from './migrations';

export type Orm = MikroORM;

/** Bounded waits (docs/operations.md#timeouts-and-outages); omitted values keep the driver defaults (tests). */
export interface DbTimeouts {
  /** Waiting for a free pool connection (knex acquireConnectionTimeout). */
  acquireTimeoutMs: number;
  /** Opening a connection (pg connectionTimeoutMillis). */
  connectTimeoutMs: number;
  /** Server-side statement_timeout; the client gives up 1 s later (pg query_timeout) if the server is stopped. */
  statementTimeoutMs: number;
}

export interface OrmOptions {
  clientUrl: string;
  debug?: boolean;
  poolMax?: number;
  /** The registered modules' entities and migrations (core/module: ormModelOf(MODULES)). */
  model: OrmModel;
  timeouts?: DbTimeouts;
  /** knex's own warnings (e.g. "Connection Error: Connection ended unexpectedly"); default: dropped. */
  driverLog?: (message: string) => void;
}

function driverOptions(t: DbTimeouts | undefined): Record<string, unknown> {
  if (!t) return {};
  return {
    acquireConnectionTimeout: t.acquireTimeoutMs,
    connection: {
      connectionTimeoutMillis: t.connectTimeoutMs,
      statement_timeout: t.statementTimeoutMs,
      query_timeout: t.statementTimeoutMs + 1000,
    },
  };
}

/** knex prints to the console by default; route its messages (redacted) to the service log instead. */
function knexLog(sink: ((message: string) => void) | undefined): Record<string, (m: unknown) => void> {
  const write = (m: unknown) => sink?.(redactSql(m instanceof Error ? m.message : String(m)));
  return { warn: write, error: write, deprecate: write, debug: () => undefined };
}

/** What MikroORM's `begin` returns for PostgreSQL: a knex transaction. */
interface KnexTransaction {
  isCompleted(): boolean;
  executionPromise: Promise<unknown>;
}

/**
 * knex swallows a failed BEGIN (or SAVEPOINT): it marks the transaction complete, hands the error to the
 * transaction's `executionPromise` only, and answers the transaction's next statement with "Transaction
 * query already complete" (knex/lib/execution/transaction.js, `query`). A BEGIN fails when its connection
 * does; MikroORM's `begin` is wrapped so that the connection's own error is thrown at once instead, which
 * core/errors/driver-errors.ts answers as 503 (test/reliability/dropped-begin.test.ts). Every transaction
 * goes through this one connection object (no read replicas).
 */
function surfaceFailedBegin(orm: Orm): void {
  const connection = orm.em.getConnection() as unknown as { begin(options?: unknown): Promise<KnexTransaction> };
  const begin = connection.begin.bind(connection);
  connection.begin = async (options) => {
    const trx = await begin(options);
    if (trx.isCompleted()) {
      await trx.executionPromise; // rejects with BEGIN's error
      throw new Error('the transaction ended before its first statement');
    }
    return trx;
  };
}

export async function initOrm(opts: OrmOptions): Promise<Orm> {
  const orm = await MikroORM.init({
    clientUrl: opts.clientUrl,
    entities: opts.model.entities,
    metadataProvider: ReflectMetadataProvider,
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: {
      migrationsList: [...MIGRATIONS, ...opts.model.migrations],
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    driverOptions: { ...driverOptions(opts.timeouts), log: knexLog(opts.driverLog) },
    debug: opts.debug ?? false,
  });
  surfaceFailedBegin(orm);
  return orm;
}

/** Applies the committed migrations (never schema sync); returns how many ran. */
export async function migrate(orm: Orm): Promise<number> {
  const applied = await orm.getMigrator().up();
  return applied.length;
}
