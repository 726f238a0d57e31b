import type { Client } from 'pg';

/** Ends a client at once: its socket is destroyed, since `end()` would wait on a server that does not answer. */
export function destroyClient(c: Client): void {
  (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  void c.end().catch(() => undefined);
}

/** Defaults: a `select 1` every 10 s, 5 s to answer. */
export const HEARTBEAT_MS = 10_000;
export const HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * A dedicated LISTEN connection (the shared cache's, core/db/shared-cache.ts; the subscriptions' hub,
 * core/events/notification-hub.ts) that died without a FIN (a restarted host, a dropped NAT entry) emits
 * no 'end' and delivers nothing. Every `everyMs` a `select 1` must answer within `timeoutMs`, or
 * `onSilent` is called (once). The watch stops by itself once `watching()` is false.
 */
export function heartbeat(
  c: Client,
  opts: { everyMs: number; timeoutMs: number; watching: () => boolean; onSilent: () => void },
): void {
  const beat = setInterval(() => {
    if (!opts.watching()) return clearInterval(beat);
    const silent = () => {
      clearInterval(beat);
      opts.onSilent();
    };
    const timer = setTimeout(silent, opts.timeoutMs);
    timer.unref();
    c.query('select 1').then(
      () => clearTimeout(timer),
      () => {
        clearTimeout(timer);
        silent();
      },
    );
  }, opts.everyMs);
  beat.unref();
}
