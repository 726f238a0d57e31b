import os from 'node:os';
import { RUNTIME_PATCHES, unknownPatchSwitches } from './core/runtime';
import path from 'node:path';
import { isCidr } from './ops/ip-whitelist';
import { parseSecretsKey } from './core/crypto/secret-box';
import { parseCorsOrigins } from './core/http/cors';
import { ConfigError } from './core/module/env-settings';

export interface Config {
  host: string;
  port: number;
  databaseUrl: string | undefined;
  /**
   * DATABASE_DIRECT_URL: a direct (session) connection to the same database for what a transaction
   * pooler cannot carry: LISTEN (shared caches), the migrations' advisory lock and the migrations.
   * Default: DATABASE_URL.
   */
  databaseDirectUrl: string | undefined;
  dataDir: string;
  /** EMBEDDED_PG_PORT: the embedded PostgreSQL's port on 127.0.0.1; unset: a free port chosen at each start. */
  embeddedPgPort: number | undefined;
  initialRootToken: string | undefined;
  externalUrl: string;
  /** Express `trust proxy`: false (default), a hop count, or proxy addresses/subnets (docs/security.md#running-behind-a-proxy-trust_proxy). */
  trustProxy: false | number | string;
  logLevel: string;
  shutdownTimeoutMs: number;
  /**
   * SHUTDOWN_DRAIN_MS: after SIGTERM, how long the process keeps serving (readiness answering 503) before
   * it stops accepting, so a load balancer's health check takes it out of rotation first. Default 0.
   */
  shutdownDrainMs: number;
  db: {
    poolMax: number;
    acquireTimeoutMs: number;
    connectTimeoutMs: number;
    statementTimeoutMs: number;
    /** Health probe period (each probe is bounded by connectTimeoutMs). */
    probeIntervalMs: number;
  };
  /** Who may read /-/metrics, /-/readiness, /-/liveness, /-/health (CIDR list; GitLab's monitoring whitelist). */
  monitoringWhitelist: string[];
  /** MONITORING_PORT: those endpoints on a listener of their own (and not on PORT); unset: on PORT. */
  monitoringPort: number | undefined;
  /** MONITORING_HOST: that listener's address; default HOST. */
  monitoringHost: string;
  /** SECRETS_KEY; absent → DATA_DIR/secrets.key (generated on first start). */
  secretsKey: Buffer | undefined;
  /** SECRETS_KEY_PREVIOUS (comma list): keys that only open, during a rotation (docs/operations.md#secrets-key-rotation). */
  secretsKeyPrevious: Buffer[];
  /** AUDIT_EVENTS_RETENTION_DAYS: audit events older than this are pruned hourly; 0 keeps them all. */
  auditRetentionDays: number;
  /** CORS_ORIGINS: `*` (default) or the origins allowed to call the API from a browser (core/http/cors.ts). */
  corsOrigins: '*' | string[];
  /** WORKERS: serving processes under the supervisor (ops/supervisor.ts); 0 = one process, no supervisor. */
  workers: number;
}

export { ConfigError };

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

function parseWhitelist(raw: string | undefined): string[] {
  const list = (raw ?? '127.0.0.0/8,::1/128')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list) {
    if (!isCidr(entry))
      throw new ConfigError(`MONITORING_WHITELIST entries must be IP addresses or CIDR ranges, got "${entry}"`);
  }
  return list;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const IP_OR_CIDR = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)(?:\/\d{1,3})?$/i;

/**
 * TRUST_PROXY: unset, "" or "false" → proxy headers are ignored; a number → that many proxy hops;
 * otherwise a comma list of addresses, CIDR subnets or loopback/linklocal/uniquelocal.
 * "true" (trust any sender) is refused: list the proxies or give the hop count.
 */
function trustProxyFromEnv(raw: string | undefined): false | number | string {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  const parts = value.split(',').map((p) => p.trim());
  const bad = parts.find((p) => !PROXY_NAMES.has(p) && !IP_OR_CIDR.test(p));
  if (bad !== undefined)
    throw new ConfigError(
      `TRUST_PROXY must be a hop count or a comma list of proxy addresses, subnets, loopback, linklocal or uniquelocal; got "${bad}"`,
    );
  return parts.join(',');
}

function secretsKeyFromEnv(env: NodeJS.ProcessEnv): Buffer | undefined {
  if (!env.SECRETS_KEY) return undefined;
  try {
    return parseSecretsKey(env.SECRETS_KEY);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

function previousKeysFromEnv(env: NodeJS.ProcessEnv): Buffer[] {
  const list = (env.SECRETS_KEY_PREVIOUS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length > 0 && !env.SECRETS_KEY)
    throw new ConfigError('SECRETS_KEY_PREVIOUS needs SECRETS_KEY (the key that seals from now on)');
  return list.map((raw, i) => {
    try {
      return parseSecretsKey(raw);
    } catch (e) {
      throw new ConfigError(
        `SECRETS_KEY_PREVIOUS, entry ${i + 1}: ${(e as Error).message.replace('SECRETS_KEY ', '')}`,
      );
    }
  });
}

function corsFromEnv(raw: string | undefined): '*' | string[] {
  try {
    return parseCorsOrigins(raw);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

/** A TCP port (1-65535) or undefined when unset. */
function portFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535)
    throw new ConfigError(`${name} must be a port number from 1 to 65535, got "${env[name]}"`);
  return Number(raw);
}

/** EMBEDDED_PG_PORT pins the embedded server's port; with DATABASE_URL nothing is embedded. */
function embeddedPortFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const port = portFromEnv(env, 'EMBEDDED_PG_PORT');
  if (port !== undefined && env.DATABASE_URL)
    throw new ConfigError(
      "EMBEDDED_PG_PORT is the embedded PostgreSQL's port; with DATABASE_URL set nothing is embedded: unset one",
    );
  return port;
}

/** MONITORING_PORT and MONITORING_HOST: the monitoring listener, apart from the main one. */
function monitoringFromEnv(
  env: NodeJS.ProcessEnv,
  host: string,
  port: number,
): { port: number | undefined; host: string } {
  const monitoringPort = portFromEnv(env, 'MONITORING_PORT');
  const monitoringHost = (env.MONITORING_HOST ?? '').trim();
  if (monitoringPort === undefined) {
    if (monitoringHost !== '')
      throw new ConfigError('MONITORING_HOST needs MONITORING_PORT (the listener it is the address of)');
    return { port: undefined, host };
  }
  if (monitoringPort === port)
    throw new ConfigError(`MONITORING_PORT must differ from PORT (${port}): it is a listener of its own`);
  return { port: monitoringPort, host: monitoringHost || host };
}

/** More workers than that only multiply memory and database connections (docs/configuration.md#environment-variables). */
export const MAX_WORKERS = 64;

/** WORKERS: unset → one per core (os.availableParallelism()); 0 → a single process without supervisor. */
function workersFromEnv(raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '') return Math.min(MAX_WORKERS, os.availableParallelism());
  if (!/^\d+$/.test(value) || Number(value) > MAX_WORKERS) {
    throw new ConfigError(
      `WORKERS must be an integer from 0 to ${MAX_WORKERS} (0: one process without a supervisor), got "${raw}"`,
    );
  }
  return Number(value);
}

/** Reads and validates the environment once (docs/configuration.md#environment-variables lists every variable). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST || '127.0.0.1';
  const port = intFromEnv(env, 'PORT', 8080);
  const token = env.INITIAL_ROOT_TOKEN || undefined;
  if (token !== undefined && token.length < 20) {
    throw new ConfigError('INITIAL_ROOT_TOKEN must be at least 20 characters long');
  }
  const externalUrl = (env.EXTERNAL_URL || `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`).replace(
    /\/+$/,
    '',
  );
  const badSwitches = unknownPatchSwitches(env.RUNTIME_PATCHES_OFF);
  if (badSwitches.length) {
    const names = RUNTIME_PATCHES.filter((p) => p.switchable).map((p) => p.name);
    throw new ConfigError(`RUNTIME_PATCHES_OFF may name ${names.join(', ')}; got "${badSwitches.join(', ')}"`);
  }
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(externalUrl))
    throw new ConfigError(`EXTERNAL_URL must be an http(s) URL without query or fragment, got "${externalUrl}"`);
  const monitoring = monitoringFromEnv(env, host, port);
  return {
    host,
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseDirectUrl: env.DATABASE_DIRECT_URL || env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || './.data'),
    embeddedPgPort: embeddedPortFromEnv(env),
    initialRootToken: token,
    externalUrl,
    trustProxy: trustProxyFromEnv(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || 'info',
    shutdownTimeoutMs: intFromEnv(env, 'SHUTDOWN_TIMEOUT_MS', 10000),
    shutdownDrainMs: intFromEnv(env, 'SHUTDOWN_DRAIN_MS', 0),
    db: {
      poolMax: intFromEnv(env, 'DB_POOL_MAX', 10),
      acquireTimeoutMs: intFromEnv(env, 'DB_POOL_ACQUIRE_TIMEOUT_MS', 2000),
      connectTimeoutMs: intFromEnv(env, 'DB_CONNECT_TIMEOUT_MS', 2000),
      statementTimeoutMs: intFromEnv(env, 'DB_STATEMENT_TIMEOUT_MS', 15000),
      probeIntervalMs: intFromEnv(env, 'DB_PROBE_INTERVAL_MS', 1000),
    },
    monitoringWhitelist: parseWhitelist(env.MONITORING_WHITELIST),
    monitoringPort: monitoring.port,
    monitoringHost: monitoring.host,
    secretsKey: secretsKeyFromEnv(env),
    secretsKeyPrevious: previousKeysFromEnv(env),
    workers: workersFromEnv(env.WORKERS),
    corsOrigins: corsFromEnv(env.CORS_ORIGINS),
    auditRetentionDays: intFromEnv(env, 'AUDIT_EVENTS_RETENTION_DAYS', 0),
  };
}
