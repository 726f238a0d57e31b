import { Client } from 'pg';

/** What the HTTP layer needs to know about the database (ops/ops.router.ts, app.ts). */
export interface DbHealth {
  /** false while the last probe failed: requests answer 503 at once instead of waiting on the pool. */
  available(): boolean;
  /** false once the embedded server died for good: liveness answers 503. */
  live(): boolean;
}

export interface DbMonitor extends DbHealth {
  stop(): Promise<void>;
}

export interface MonitorOptions {
  url: string;
  intervalMs: number;
  timeoutMs: number;
  live?: () => boolean;
  onChange?: (available: boolean) => void;
}

/**
 * Probes the database with `select 1` on its own connection (outside the pool, so a full pool or a
 * stopped server cannot delay it) every `intervalMs`, each probe bounded by `timeoutMs`.
 */
export async function startDbMonitor(opts: MonitorOptions): Promise<DbMonitor> {
  let client: Client | undefined;
  let available = true;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const drop = () => {
    const c = client;
    client = undefined;
    c?.removeAllListeners('error');
    c?.on('error', () => undefined);
    void c?.end().catch(() => undefined);
  };
  const probe = async (): Promise<boolean> => {
    try {
      if (!client) {
        const c = new Client({
          connectionString: opts.url,
          connectionTimeoutMillis: opts.timeoutMs,
          query_timeout: opts.timeoutMs,
          application_name: 'health-probe',
        });
        c.on('error', () => drop());
        client = c;
        await c.connect();
      }
      await client.query('select 1');
      return true;
    } catch {
      drop();
      return false;
    }
  };
  const tick = async () => {
    const ok = await probe();
    if (stopped) return;
    if (ok !== available) {
      available = ok;
      opts.onChange?.(ok);
    }
    timer = setTimeout(() => void tick(), opts.intervalMs);
    timer.unref();
  };
  available = await probe();
  timer = setTimeout(() => void tick(), opts.intervalMs);
  timer.unref();
  return {
    available: () => available,
    live: () => opts.live?.() ?? true,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      drop();
    },
  };
}
