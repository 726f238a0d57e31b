import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, Registry } from 'prom-client';
import {
  ask,
  COLLECT_METRICS,
  INSTANCE_METRICS,
  isFleetRequest,
  READINESS,
  reply,
  type Channel,
} from './fleet-messages';
import { READINESS_DRAINING, readinessFailed, type Readiness } from './ops.router';
import type { ServingWorker } from './supervisor';

/** A worker that does not answer within this is left out of the scrape (it is busy, stuck or dying). */
const COLLECT_TIMEOUT_MS = 1000;
/** A worker's readiness answers within 1.5 s (ops/ops.router.ts); the IPC trip on top. */
const READINESS_TIMEOUT_MS = 2000;

/** A metric as prom-client's getMetricsAsJSON gives it (and IPC carries it). */
interface MetricJson {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
}

/**
 * Every sample labelled `worker`; the `sum` aggregator then merges the sets without adding anything
 * (no two samples share their labels), and keeps what prom-client would otherwise drop (`omit`).
 */
function labelled(metrics: MetricJson[], worker: string): MetricJson[] {
  return metrics.map((m) => ({
    ...m,
    aggregator: 'sum',
    values: m.values.map((v) => ({ ...v, labels: { ...v.labels, worker } })),
  }));
}

function channelOf(worker: Worker): Channel {
  return {
    send: (message, done) => (worker.isConnected() ? worker.send(message, done) : done(new Error('disconnected'))),
    on: (event, listener) => worker.on(event, listener),
    off: (event, listener) => worker.off(event, listener),
  };
}

export interface FleetView {
  /** One scrape of the instance: the primary's process metrics and each serving worker's registry, labelled `worker`. */
  metrics(): Promise<string>;
  contentType: string;
  /** /-/readiness of the instance: 503 while stopping or with no worker serving, else a serving worker's answer. */
  readiness(): Promise<Readiness>;
  stop(): void;
}

/**
 * The supervisor's primary's view of its workers (docs/operations.md#metrics): what its monitoring port
 * answers, and what a worker scraped on the main port relays. Worker labels are slots (0 … WORKERS-1,
 * `primary` for the primary), so a replaced worker's counters restart under its predecessor's label,
 * as Prometheus expects of a restarted process, and the label set stays bounded.
 */
export function fleetView(serving: () => ServingWorker[], stopping: () => boolean): FleetView {
  const own = new Registry();
  collectDefaultMetrics({ register: own });
  let turn = 0;

  const metrics = async (): Promise<string> => {
    const replies = await Promise.all(
      serving().map(async ({ worker, index }) => ({
        index,
        answer: await ask(channelOf(worker), COLLECT_METRICS, COLLECT_TIMEOUT_MS),
      })),
    );
    const sets = [labelled((await own.getMetricsAsJSON()) as unknown as MetricJson[], 'primary')];
    for (const { index, answer } of replies)
      if (Array.isArray(answer?.metrics)) sets.push(labelled(answer.metrics as MetricJson[], String(index)));
    return AggregatorRegistry.aggregate(sets).metrics();
  };

  const readiness = async (): Promise<Readiness> => {
    if (stopping()) return READINESS_DRAINING;
    const workers = serving();
    if (workers.length === 0) return readinessFailed('no worker is serving');
    turn = (turn + 1) % workers.length;
    const answer = await ask(channelOf(workers[turn].worker), READINESS, READINESS_TIMEOUT_MS);
    if (!answer || typeof answer.status !== 'number') return readinessFailed('no worker answered');
    return { status: answer.status, body: answer.body, close: answer.close === true };
  };

  // A scrape that reached a worker on the main port: that worker asks here.
  const relay = (worker: Worker, m: unknown) => {
    if (!isFleetRequest(m, INSTANCE_METRICS)) return;
    void metrics().then(
      (text) => reply(channelOf(worker), m, { text }),
      () => reply(channelOf(worker), m, {}),
    );
  };
  cluster.on('message', relay);
  return { metrics, readiness, contentType: own.contentType, stop: () => cluster.off('message', relay) };
}
