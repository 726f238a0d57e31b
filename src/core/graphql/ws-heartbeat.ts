import { WebSocket } from 'ws';

/**
 * The `ws` package's heartbeat: every `intervalMs` each open socket that sent nothing since the previous
 * ping (no pong, no message) is terminated, and the others are pinged. A client that vanished without a
 * TCP close (a laptop lid, a dropped network) thus holds its subscriptions (and its share of the
 * per-user limit) for at most two intervals. Browsers and `ws` clients answer pings by themselves; the
 * graphql-ws protocol's own `ping`/`pong` messages are answered by the protocol server and count as life.
 * One timer for all sockets.
 */
export function startHeartbeat(
  clients: Set<WebSocket>,
  intervalMs: number,
): { track(ws: WebSocket): void; stop(): void } {
  const heard = new WeakSet<WebSocket>();
  const timer = setInterval(() => {
    for (const ws of clients) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (!heard.has(ws)) {
        ws.terminate();
        continue;
      }
      heard.delete(ws);
      ws.ping();
    }
  }, intervalMs);
  timer.unref();
  return {
    track(ws) {
      const mark = () => heard.add(ws);
      mark();
      ws.on('pong', mark);
      ws.on('message', mark);
    },
    stop: () => clearInterval(timer),
  };
}
