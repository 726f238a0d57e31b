import type { AppEnv } from '../context/request-ctx';
import { ConfigError, positiveIntSetting, readSetting, type EnvSetting } from '../module/env-settings';
import { MAX_SLOTS } from './subscription-slots';

/** The per-user, per-address and liveness settings of the WebSocket endpoint (docs/graphql.md#subscriptions-live-updates). */
export interface SubscriptionSettings {
  /**
   * SUBSCRIPTION_CONNECTIONS_PER_USER (default 20): open connections one user may hold on one instance
   * (anonymous connections: per client address); the next `connection_init` is refused (close 4429).
   */
  connectionsPerUser: number;
  /**
   * SUBSCRIPTION_PING_INTERVAL_MS (default 30000): the server pings each socket this often and drops one
   * that sent nothing (no pong, no message) since the previous ping.
   */
  pingIntervalMs: number;
  /**
   * SUBSCRIPTION_MAX_PER_USER (default 200, at most 1024): subscriptions one user may have open at once,
   * on all instances on the database together; the next subscribe answers TOO_MANY_REQUESTS.
   */
  subscriptionsPerUser: number;
  /**
   * SUBSCRIPTION_RATE_PER_MINUTE (default 400): subscribe operations one user (anonymous: one address)
   * may send per minute, on all instances together; beyond, a subscribe answers TOO_MANY_REQUESTS.
   */
  subscribesPerMinute: number;
  /**
   * SUBSCRIPTION_PENDING_PER_ADDRESS (default 20): sockets one client address (IPv6: one /64) may have
   * upgraded but not yet acknowledged on one instance; the next upgrade is refused with 429.
   */
  pendingPerAddress: number;
}

/** A whole number in 1..max. */
function boundedIntSetting(name: string, fallback: number, max: number): EnvSetting<number> {
  const base = positiveIntSetting(name, fallback);
  return {
    name,
    parse(raw) {
      const value = base.parse(raw);
      if (value > max) throw new ConfigError(`${name} must be at most ${max}, got "${raw}"`);
      return value;
    },
  };
}

const CONNECTIONS_PER_USER = positiveIntSetting('SUBSCRIPTION_CONNECTIONS_PER_USER', 20);
const PING_INTERVAL_MS = positiveIntSetting('SUBSCRIPTION_PING_INTERVAL_MS', 30_000);
const MAX_PER_USER = boundedIntSetting('SUBSCRIPTION_MAX_PER_USER', 200, MAX_SLOTS);
const RATE_PER_MINUTE = positiveIntSetting('SUBSCRIPTION_RATE_PER_MINUTE', 400);
const PENDING_PER_ADDRESS = positiveIntSetting('SUBSCRIPTION_PENDING_PER_ADDRESS', 20);

/** Core's own module-style settings, checked at start with the modules' (core/module/app-module.ts `envSettingsOf`). */
export const SUBSCRIPTION_SETTINGS = [
  CONNECTIONS_PER_USER,
  PING_INTERVAL_MS,
  MAX_PER_USER,
  RATE_PER_MINUTE,
  PENDING_PER_ADDRESS,
];

export function subscriptionSettings(env: AppEnv): SubscriptionSettings {
  return {
    connectionsPerUser: readSetting(env, CONNECTIONS_PER_USER),
    pingIntervalMs: readSetting(env, PING_INTERVAL_MS),
    subscriptionsPerUser: readSetting(env, MAX_PER_USER),
    subscribesPerMinute: readSetting(env, RATE_PER_MINUTE),
    pendingPerAddress: readSetting(env, PENDING_PER_ADDRESS),
  };
}
