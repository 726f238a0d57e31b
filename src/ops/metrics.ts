import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics: requests and latency by route and status, plus process metrics. */
export interface Metrics {
  registry: Registry;
  middleware: (req: Request, res: Response, next: NextFunction) => void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds', help: 'HTTP request latency', labelNames, registers: [registry],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  return {
    registry,
    middleware(req, res, next) {
      const end = duration.startTimer();
      res.on('finish', () => {
        // Route templates, never raw paths, keep the label set bounded.
        const route = (res.locals.route as string | undefined) ?? (req.path.startsWith('/api/v4') ? 'unmatched' : req.path);
        const labels = { method: req.method, route, status: String(res.statusCode) };
        requests.inc(labels);
        end(labels);
      });
      next();
    },
  };
}
