import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/**
 * The node:cluster primary of `npm start` (README "Operations"): forks WORKERS serving processes that
 * share the listening socket, replaces one that dies at once, and stops them all gracefully. The
 * primary itself serves nothing, so a request cannot take it down.
 */
export interface SupervisorOptions {
  workers: number;
  logger: Logger;
  /** Added to each worker's environment (the database URL the primary opened). */
  env?: Record<string, string>;
  /** After SIGTERM, how long workers may take to finish in-flight requests and exit before SIGKILL. */
  stopTimeoutMs: number;
  /**
   * The supervisor gave up and stopped every worker: one exited before all first workers listened
   * (a start-up failure, already logged by the worker), or one exited with code 2 (configuration).
   * The caller cleans up and exits with `code`.
   */
  onGiveUp: (code: number) => void;
}

export interface Supervisor {
  /** Resolves once every first worker listens (never when start-up fails: see onGiveUp). */
  ready: Promise<void>;
  /** SIGTERM to every worker (each finishes its in-flight requests), SIGKILL after stopTimeoutMs; resolves when all exited. */
  stop(): Promise<void>;
}

/** Deaths counted for the crash-loop back-off. */
export const CRASH_WINDOW_MS = 60_000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 30_000;

/**
 * Delay before forking the replacement of a dead worker, given the deaths in the last CRASH_WINDOW_MS
 * (this one included): none while there are at most `free` (one per worker), then 0.5 s, 1 s, 2 s, …
 * up to 30 s, so a crash loop forks at most about twice a minute instead of spinning.
 */
export function restartDelay(recentDeaths: number, free: number): number {
  const over = recentDeaths - Math.max(1, free);
  return over <= 0 ? 0 : Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (over - 1));
}

const DRAINING = 'gitlab-admin:draining';

/** Worker side: this process stops accepting and will exit; the primary forks its replacement now. */
export function announceDraining(): void {
  if (cluster.isWorker && process.connected && process.send) process.send({ supervisor: DRAINING });
}

export function startSupervisor(opts: SupervisorOptions): Supervisor {
  const { logger } = opts;
  const live = new Map<number, Worker>();
  const forkedAt = new Map<number, number>();
  /** Replacement worker id → when the worker it replaces died or started draining. */
  const diedAt = new Map<number, number>();
  const replaced = new Set<number>();
  const deaths: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const firstWorkers = new Set<number>();
  let started = false;
  let stopping = false;
  let stopped: (() => void) | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const fork = (replaces?: { id: number; at: number }): Worker => {
    const worker = cluster.fork(opts.env);
    live.set(worker.id, worker);
    forkedAt.set(worker.id, Date.now());
    if (replaces) diedAt.set(worker.id, replaces.at);
    logger.info({ worker: worker.id, pid: worker.process.pid, replaces: replaces?.id }, 'worker started');
    worker.on('message', (m: unknown) => {
      if ((m as { supervisor?: unknown } | null)?.supervisor === DRAINING) replace(worker, 'draining');
    });
    return worker;
  };

  const replace = (worker: Worker, why: 'draining' | 'exit'): void => {
    if (stopping || replaced.has(worker.id)) return;
    replaced.add(worker.id);
    const now = Date.now();
    while (deaths.length > 0 && deaths[0] <= now - CRASH_WINDOW_MS) deaths.shift();
    deaths.push(now);
    const delay = restartDelay(deaths.length, opts.workers);
    if (delay === 0) {
      fork({ id: worker.id, at: now });
      return;
    }
    logger.warn({ worker: worker.id, why, delayMs: delay, deathsLastMinute: deaths.length }, 'workers keep dying: waiting before forking the replacement');
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopping) fork({ id: worker.id, at: now });
    }, delay);
    timers.add(timer);
  };

  const giveUp = (code: number): void => {
    void stop().then(() => opts.onGiveUp(code));
  };

  cluster.on('listening', (worker) => {
    const now = Date.now();
    const since = diedAt.get(worker.id);
    logger.info({ worker: worker.id, pid: worker.process.pid, startMs: now - (forkedAt.get(worker.id) ?? now), ...(since !== undefined ? { sinceDeathMs: now - since } : {}) }, 'worker listening');
    if (started || !firstWorkers.has(worker.id)) return;
    firstWorkers.delete(worker.id);
    if (firstWorkers.size === 0) {
      started = true;
      markReady();
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker.id);
    const fields = { worker: worker.id, pid: worker.process.pid, code, signal };
    if (stopping) {
      logger.info(fields, 'worker stopped');
      if (live.size === 0) stopped?.();
      return;
    }
    if (!started || code === 2) {
      logger.error(fields, started ? 'worker exited with a configuration error; stopping' : 'worker exited during start-up; stopping');
      giveUp(code === 2 ? 2 : 1);
      return;
    }
    // A worker that announced draining (uncaught exception, already logged at fatal) exits as expected.
    if (replaced.has(worker.id)) return void logger.warn(fields, 'worker exited (its replacement was already forked)');
    logger.error(fields, 'worker died; forking its replacement');
    replace(worker, 'exit');
  });

  const stop = (): Promise<void> => {
    if (stopping) return new Promise((resolve) => (live.size === 0 ? resolve() : waitAll(resolve)));
    stopping = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    return new Promise<void>((resolve) => {
      if (live.size === 0) return resolve();
      waitAll(resolve);
      const force = setTimeout(() => {
        for (const w of live.values()) {
          logger.warn({ worker: w.id, pid: w.process.pid }, 'worker did not stop in time; killing it');
          w.process.kill('SIGKILL');
        }
      }, opts.stopTimeoutMs);
      force.unref();
      for (const w of live.values()) w.process.kill('SIGTERM');
    });
  };

  const waitAll = (resolve: () => void): void => {
    const previous = stopped;
    stopped = () => {
      previous?.();
      resolve();
    };
  };

  // Workers accept from the shared listening socket themselves (not round-robin through the primary):
  // a connection the primary has handed to a worker that is SIGKILLed at that moment is never
  // answered nor closed (node:cluster keeps it), whereas the kernel queue only ever gives a
  // connection to a live worker. The primary then does no work per connection either.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let i = 0; i < opts.workers; i += 1) firstWorkers.add(fork().id);
  return { ready, stop };
}
