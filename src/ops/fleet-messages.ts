/**
 * Requests between the supervisor's primary and its workers for one view of the instance
 * (docs/operations.md#metrics): a scrape shows every worker's metrics, the monitoring port's readiness
 * is a worker's. A request carries an id, its reply the same id and `reply: true`. None is sent per
 * ordinary request: only per scrape or readiness check.
 */
const PREFIX = 'gitlab-admin:';
/** primary → worker: its registry as JSON (prom-client's getMetricsAsJSON). */
export const COLLECT_METRICS = `${PREFIX}collect-metrics`;
/** primary → worker: its /-/readiness answer. */
export const READINESS = `${PREFIX}readiness`;
/** worker → primary: the instance's metrics text, for a scrape that reached the worker on the main port. */
export const INSTANCE_METRICS = `${PREFIX}instance-metrics`;

export interface FleetMessage {
  fleet: string;
  id: number;
  reply?: boolean;
  [field: string]: unknown;
}

/** One end of the IPC channel: a cluster Worker (primary side), or the worker process itself. */
export interface Channel {
  send(message: FleetMessage, done: (error: Error | null) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

const isFleet = (m: unknown): m is FleetMessage =>
  typeof (m as FleetMessage | null)?.fleet === 'string' && typeof (m as FleetMessage).id === 'number';

export function isFleetRequest(m: unknown, kind: string): m is FleetMessage {
  return isFleet(m) && m.fleet === kind && m.reply !== true;
}

let lastId = 0;

/** Sends a request and resolves with its reply, or undefined when none came within `timeoutMs` (or the channel is closed). */
export function ask(channel: Channel, kind: string, timeoutMs: number): Promise<FleetMessage | undefined> {
  lastId += 1;
  const id = lastId;
  return new Promise((resolve) => {
    const listener = (m: unknown) => {
      if (isFleet(m) && m.fleet === kind && m.reply === true && m.id === id) done(m);
    };
    const done = (reply: FleetMessage | undefined) => {
      clearTimeout(timer);
      channel.off('message', listener);
      resolve(reply);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    channel.on('message', listener);
    channel.send({ fleet: kind, id }, (error) => error && done(undefined));
  });
}

/** Answers `request` on `channel`; a closed channel (the other side exiting) drops the answer. */
export function reply(channel: Channel, request: FleetMessage, payload: Record<string, unknown>): void {
  channel.send({ ...payload, fleet: request.fleet, id: request.id, reply: true }, () => undefined);
}

/** The worker process's end of its channel to the primary. */
export const PRIMARY: Channel = {
  send: (message, done) => {
    if (!process.connected || !process.send) return done(new Error('no channel to the supervisor'));
    process.send(message, undefined, undefined, done);
  },
  on: (event, listener) => process.on(event, listener),
  off: (event, listener) => process.off(event, listener),
};
