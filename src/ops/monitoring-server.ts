import http from 'node:http';
import { whitelistCheck } from './ip-whitelist';
import type { Readiness } from './ops.router';

/** What the monitoring port answers: one process's ops endpoints, or the supervisor's view of its workers. */
export interface MonitoringHandlers {
  live(): boolean;
  readiness(): Promise<Readiness>;
  /** undefined: the metrics could not be gathered (503). */
  metrics(): Promise<string | undefined>;
  contentType: string;
}

export interface MonitoringServer {
  port: number;
  close(): Promise<void>;
}

const PATHS = new Set(['/-/health', '/-/liveness', '/-/readiness', '/-/metrics']);
const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * MONITORING_PORT (docs/operations.md#monitoring-port): /-/health, /-/liveness, /-/readiness and
 * /-/metrics on a listener of their own, for MONITORING_WHITELIST only (the TCP peer), so that a load
 * balancer in front of the main port never makes them public. Plain node:http: the supervisor's primary
 * serves it without loading the app.
 */
export function listenMonitoring(
  host: string,
  port: number,
  whitelist: string[],
  handlers: MonitoringHandlers,
): Promise<MonitoringServer> {
  const allowed = whitelistCheck(whitelist);
  const server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string, close = false) => {
      res.writeHead(status, {
        'Content-Type': type,
        'Content-Length': Buffer.byteLength(body),
        ...(close ? { Connection: 'close' } : {}),
      });
      res.end(body);
    };
    const path = (req.url ?? '').split('?')[0];
    if (!allowed(req.socket.remoteAddress) || !PATHS.has(path) || (req.method !== 'GET' && req.method !== 'HEAD'))
      return send(404, TEXT, 'Not Found');
    if (path === '/-/health') return send(200, TEXT, 'GitLab OK');
    if (path === '/-/liveness')
      return handlers.live() ? send(200, JSON_TYPE, '{"status":"ok"}') : send(503, JSON_TYPE, '{"status":"failed"}');
    if (path === '/-/readiness')
      return void handlers.readiness().then((r) => send(r.status, JSON_TYPE, JSON.stringify(r.body), r.close));
    void handlers.metrics().then(
      (text) => (text === undefined ? send(503, TEXT, 'metrics unavailable') : send(200, handlers.contentType, text)),
      () => send(503, TEXT, 'metrics unavailable'),
    );
  });
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
