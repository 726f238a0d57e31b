import type { Registry } from 'prom-client';
import { ask, COLLECT_METRICS, INSTANCE_METRICS, isFleetRequest, PRIMARY, READINESS, reply } from './fleet-messages';
import type { Readiness } from './ops.router';

/** How long a worker waits for the instance's metrics from the primary (which gives each worker 1 s). */
const INSTANCE_METRICS_TIMEOUT_MS = 3000;

/**
 * Worker side of the instance view (ops/fleet-view.ts): answers the primary's requests for this
 * worker's registry and readiness. Returns the function that stops answering.
 */
export function answerFleetRequests(opts: { registry: Registry; readiness: () => Promise<Readiness> }): () => void {
  const listener = (m: unknown) => {
    if (isFleetRequest(m, COLLECT_METRICS))
      void opts.registry.getMetricsAsJSON().then((metrics) => reply(PRIMARY, m, { metrics }));
    else if (isFleetRequest(m, READINESS))
      void opts.readiness().then((r) => reply(PRIMARY, m, { status: r.status, body: r.body, close: r.close === true }));
  };
  process.on('message', listener);
  return () => process.off('message', listener);
}

/** The instance's metrics (every worker's, labelled), asked of the primary for a scrape on the main port. */
export async function instanceMetricsFromPrimary(): Promise<string | undefined> {
  const answer = await ask(PRIMARY, INSTANCE_METRICS, INSTANCE_METRICS_TIMEOUT_MS);
  return typeof answer?.text === 'string' ? answer.text : undefined;
}
