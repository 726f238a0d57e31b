import cluster, { type Worker } from 'node:cluster';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { SharedListener } from './shared-listener';
import {
  describeInFlight,
  DRAINING,
  isWorkerMessage,
  LISTENING,
  REQUEST_DONE,
  REQUESTS,
  SOCKET,
  type HeapNote,
  type RequestRecord,
  type WorkerMessage,
} from './worker-messages';

/**
 * The node:cluster primary of `npm start` (docs/operations.md#process-supervision-and-uncaught-errors): forks WORKERS serving
 * processes, hands each the listening socket it holds, replaces one that dies, and stops them all
 * gracefully. The primary itself serves nothing, so a request cannot take it down.
 *
 * A worker that dies after it listened (a request killed it, or a signal) is replaced at once,
 * however often that happens: a back-off there would leave the port without workers exactly when
 * requests are killing them. Only workers that die before they listen (start-up failures: the
 * database, the configuration) are replaced with a growing delay, since the next one would most
 * likely fail the same way. Meanwhile the socket stays open (ops/shared-listener.ts): connections
 * wait for the next worker instead of being refused.
 */
export interface SupervisorOptions {
  workers: number;
  logger: Logger;
  /** Bound by the primary (ops/shared-listener.ts); workers ask for it and listen on it. */
  listener: SharedListener;
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

/** A worker that listens and is not draining, with its slot (0 … WORKERS-1; a replacement takes its predecessor's). */
export interface ServingWorker {
  worker: Worker;
  index: number;
}

export interface Supervisor {
  /** Resolves once every first worker listens (never when start-up fails: see onGiveUp). */
  ready: Promise<void>;
  /** The workers serving now, by slot (ops/fleet-view.ts labels their metrics with it). */
  serving(): ServingWorker[];
  /** SIGTERM to every worker (each finishes its in-flight requests), SIGKILL after stopTimeoutMs; resolves when all exited. */
  stop(): Promise<void>;
}

/** Start-up failures counted for the back-off. */
export const CRASH_WINDOW_MS = 60_000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 30_000;

/**
 * Delay before forking the replacement of a worker that died before it listened, given such deaths
 * in the last CRASH_WINDOW_MS (this one included): none while there are at most `free` (one per
 * worker), then 0.5 s, 1 s, 2 s, … up to 30 s, so a start-up crash loop forks at most about twice
 * a minute instead of spinning. Workers that died while serving are replaced at once (no delay).
 */
export function restartDelay(recentStartFailures: number, free: number): number {
  const over = recentStartFailures - Math.max(1, free);
  return over <= 0 ? 0 : Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (over - 1));
}

interface Slot {
  worker: Worker;
  /** 0 … WORKERS-1, kept by replacements: a bounded `worker` label for metrics. */
  index: number;
  forkedAt: number;
  /** The worker this one replaces, and when that one died or started draining. */
  replaces?: { id: number; at: number };
  listeningAt?: number;
  /** Announced draining: its replacement is forked, its exit is expected. */
  draining: boolean;
  /** Requests the worker reported (ops/in-flight-requests.ts) and has not finished, by ref. */
  reported: Map<number, RequestRecord>;
  heap?: HeapNote;
}

export function startSupervisor(opts: SupervisorOptions): Supervisor {
  const { logger, listener } = opts;
  const slots = new Map<number, Slot>();
  const startFailures: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const firstWorkers = new Set<number>();
  let started = false;
  let stopping = false;
  let stopped: (() => void) | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const fork = (index: number, replaces?: { id: number; at: number }): Worker => {
    const worker = cluster.fork(opts.env);
    const slot: Slot = { worker, index, forkedAt: Date.now(), replaces, draining: false, reported: new Map() };
    slots.set(worker.id, slot);
    logger.info({ worker: worker.id, pid: worker.process.pid, replaces: replaces?.id }, 'worker started');
    worker.on('message', (m: unknown) => {
      if (isWorkerMessage(m)) received(slot, m);
    });
    return worker;
  };

  const received = (slot: Slot, m: WorkerMessage): void => {
    switch (m.supervisor) {
      case SOCKET:
        // A raw TCP handle travels like a server (child_process sends it as 'net.Native'); the typings only name the wrappers.
        if (!stopping) slot.worker.send({ supervisor: SOCKET }, listener.handle as unknown as Socket);
        return;
      case LISTENING:
        return listening(slot);
      case DRAINING:
        // Before it listened this is a start-up failure: its exit goes through the back-off.
        if (slot.listeningAt !== undefined) replace(slot, Date.now());
        return;
      case REQUESTS:
        for (const r of m.requests) slot.reported.set(r.ref, r);
        if (m.heap) slot.heap = m.heap;
        return;
      case REQUEST_DONE:
        slot.reported.delete(m.ref);
        return;
    }
  };

  const listening = (slot: Slot): void => {
    const now = Date.now();
    slot.listeningAt = now;
    const { worker } = slot;
    const since = slot.replaces?.at;
    logger.info(
      {
        worker: worker.id,
        pid: worker.process.pid,
        startMs: now - slot.forkedAt,
        ...(since !== undefined ? { sinceDeathMs: now - since } : {}),
      },
      'worker listening',
    );
    if (started || !firstWorkers.delete(worker.id)) return;
    if (firstWorkers.size === 0) {
      started = true;
      markReady();
    }
  };

  /** A serving worker died or is draining: its replacement is forked now. */
  const replace = (slot: Slot, at: number): void => {
    if (stopping || slot.draining) return;
    slot.draining = true;
    fork(slot.index, { id: slot.worker.id, at });
  };

  /** A worker died before it listened: forked again after restartDelay. */
  const retry = (slot: Slot, at: number): void => {
    while (startFailures.length > 0 && startFailures[0] <= at - CRASH_WINDOW_MS) startFailures.shift();
    startFailures.push(at);
    const delay = restartDelay(startFailures.length, opts.workers);
    const replaces = { id: slot.worker.id, at };
    if (delay === 0) return void fork(slot.index, replaces);
    logger.warn(
      { worker: slot.worker.id, delayMs: delay, startFailuresLastMinute: startFailures.length },
      'workers keep failing to start: waiting before forking the replacement',
    );
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopping) fork(slot.index, replaces);
    }, delay);
    timers.add(timer);
  };

  const giveUp = (code: number): void => {
    void stop().then(() => opts.onGiveUp(code));
  };

  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.get(worker.id);
    slots.delete(worker.id);
    if (!slot) return;
    const now = Date.now();
    const fields = { worker: worker.id, pid: worker.process.pid, code, signal };
    if (stopping) {
      logger.info(fields, 'worker stopped');
      if (slots.size === 0) stopped?.();
      return;
    }
    if ((!started && slot.listeningAt === undefined) || code === 2) {
      logger.error(
        fields,
        code === 2 ? 'worker exited with a configuration error; stopping' : 'worker exited during start-up; stopping',
      );
      return giveUp(code === 2 ? 2 : 1);
    }
    const served = slot.listeningAt === undefined ? {} : { servedMs: now - slot.listeningAt };
    // The requests it reported: what the operator looks at when a request keeps killing workers.
    const named = {
      ...fields,
      ...served,
      inFlight: describeInFlight(slot.reported.values(), now),
      ...(slot.heap ? { heap: slot.heap } : {}),
    };
    // A worker that announced draining (uncaught exception, already logged at fatal) exits as expected.
    if (slot.draining) return void logger.warn(named, 'worker exited (its replacement was already forked)');
    if (slot.listeningAt === undefined) {
      logger.error(fields, 'worker died before it listened; forking its replacement');
      return retry(slot, now);
    }
    logger.error(named, 'worker died; forking its replacement');
    replace(slot, now);
  });

  const stop = (): Promise<void> => {
    if (stopping) return new Promise((resolve) => (slots.size === 0 ? resolve() : waitAll(resolve)));
    stopping = true;
    // Workers keep their copies of the socket until they have drained; then the port closes.
    listener.close();
    for (const t of timers) clearTimeout(t);
    timers.clear();
    return new Promise<void>((resolve) => {
      if (slots.size === 0) return resolve();
      waitAll(resolve);
      const force = setTimeout(() => {
        for (const { worker: w } of slots.values()) {
          logger.warn({ worker: w.id, pid: w.process.pid }, 'worker did not stop in time; killing it');
          w.process.kill('SIGKILL');
        }
      }, opts.stopTimeoutMs);
      force.unref();
      for (const { worker: w } of slots.values()) w.process.kill('SIGTERM');
    });
  };

  const waitAll = (resolve: () => void): void => {
    const previous = stopped;
    stopped = () => {
      previous?.();
      resolve();
    };
  };

  const serving = (): ServingWorker[] =>
    [...slots.values()]
      .filter((s) => s.listeningAt !== undefined && !s.draining && !stopping)
      .map((s) => ({ worker: s.worker, index: s.index }))
      .sort((a, b) => a.index - b.index);

  for (let i = 0; i < opts.workers; i += 1) firstWorkers.add(fork(i).id);
  return { ready, stop, serving };
}
