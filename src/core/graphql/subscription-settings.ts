import type { AppEnv } from '../context/request-ctx';

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

export function subscriptionSettings(env: AppEnv): SubscriptionSettings {
  const n = (name: string, dflt: number) => {
    const v = Number(env[name]);
    return Number.isSafeInteger(v) && v > 0 ? v : dflt;
  };
  return { connectionsPerUser: n('SUBSCRIPTION_CONNECTIONS_PER_USER', 20), pingIntervalMs: n('SUBSCRIPTION_PING_INTERVAL_MS', 30_000) };
}
