import type { AppEnv } from '../context/request-ctx';
import { positiveIntSetting, readSetting } from '../module/env-settings';

/** The per-user and liveness settings of the WebSocket endpoint (README "Live updates"). */
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
}

const CONNECTIONS_PER_USER = positiveIntSetting('SUBSCRIPTION_CONNECTIONS_PER_USER', 20);
const PING_INTERVAL_MS = positiveIntSetting('SUBSCRIPTION_PING_INTERVAL_MS', 30_000);

/** Core's own module-style settings, checked at start with the modules' (core/module/app-module.ts `envSettingsOf`). */
export const SUBSCRIPTION_SETTINGS = [CONNECTIONS_PER_USER, PING_INTERVAL_MS];

export function subscriptionSettings(env: AppEnv): SubscriptionSettings {
  return { connectionsPerUser: readSetting(env, CONNECTIONS_PER_USER), pingIntervalMs: readSetting(env, PING_INTERVAL_MS) };
}
