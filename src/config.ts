import path from 'node:path';
import { parseSecretsKey } from './core/crypto/secret-box';

export interface Config {
  host: string;
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  initialRootToken: string | undefined;
  externalUrl: string;
  logLevel: string;
  shutdownTimeoutMs: number;
  /** SECRETS_KEY; absent → DATA_DIR/secrets.key (generated on first start). */
  secretsKey: Buffer | undefined;
}

export class ConfigError extends Error {}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

function secretsKeyFromEnv(env: NodeJS.ProcessEnv): Buffer | undefined {
  if (!env.SECRETS_KEY) return undefined;
  try {
    return parseSecretsKey(env.SECRETS_KEY);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

/** Reads and validates the environment once (README "Configuration" lists every variable). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST || '127.0.0.1';
  const port = intFromEnv(env, 'PORT', 8080);
  const token = env.INITIAL_ROOT_TOKEN || undefined;
  if (token !== undefined && token.length < 20) {
    throw new ConfigError('INITIAL_ROOT_TOKEN must be at least 20 characters long');
  }
  const externalUrl = (env.EXTERNAL_URL || `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`).replace(/\/+$/, '');
  return {
    host,
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || './.data'),
    initialRootToken: token,
    externalUrl,
    logLevel: env.LOG_LEVEL || 'info',
    shutdownTimeoutMs: intFromEnv(env, 'SHUTDOWN_TIMEOUT_MS', 10000),
    secretsKey: secretsKeyFromEnv(env),
  };
}
