import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DbHealth } from '../core/db/db-monitor';
import type { Orm } from '../core/db/orm';
import { processErrorsTotal } from './process-policy';
import { secretsUnreadableTotal } from '../core/crypto/secret-box';
import { buildInfo } from '../core/build-info';

/** Prometheus metrics: requests and latency by bounded route label and status, database up, pool gauges, DB errors. */
export interface Metrics {
  registry: Registry;
  dbErrors: Counter<'kind'>;
  middleware: (req: Request, res: Response, next: NextFunction) => void;
}

// Fixed paths outside the REST route table; anything else without a route template is "unmatched".
const FIXED = new Set([
  '/graphql',
  '/-/graphiql',
  '/-/health',
  '/-/liveness',
  '/-/readiness',
  '/-/metrics',
  '/api/v4/openapi.json',
]);

export function routeLabel(req: Request, res: Response): string {
  const route = res.locals.route as string | undefined;
  if (route) return route;
  const path = req.baseUrl + req.path;
  if (FIXED.has(path)) return path;
  if (path.startsWith('/api/v4/docs')) return '/api/v4/docs';
  return 'unmatched';
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

function poolOf(orm: Orm): TarnPool | undefined {
  return (orm.em.getConnection().getKnex().client as { pool?: TarnPool }).pool;
}

/**
 * This process's registry. Under the supervisor a scrape shows every worker's registry, labelled
 * `worker` (ops/fleet-metrics.ts); `db_up` follows the database health probe (1: the last probe answered).
 */
export function createMetrics(orm?: Orm, health?: DbHealth): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    registers: [registry],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  const dbErrors = new Counter({
    name: 'db_errors_total',
    help: 'Database errors seen by requests (unavailable: unreachable or timed out; conflict: deadlock or serialization failure, answered 409; query: other driver errors)',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  // Process-wide (installProcessPolicy counts into it); each registry of this process exports it.
  registry.registerMetric(processErrorsTotal);
  registry.registerMetric(secretsUnreadableTotal);
  // GitLab's own services' name for it: which release serves, for dashboards of a rolling upgrade.
  const build = buildInfo();
  new Gauge({
    name: 'gitlab_build_info',
    help: 'Always 1: the release (version), its git commit (revision) and the GitLab API version it answers as',
    labelNames: ['version', 'revision', 'gitlab_version'] as const,
    registers: [registry],
  }).set({ version: build.version, revision: build.revision, gitlab_version: build.gitlabVersion }, 1);
  new Gauge({
    name: 'db_up',
    help: 'Whether the database answered the last health probe (1) or not (0); the probe runs every DB_PROBE_INTERVAL_MS',
    registers: [registry],
    collect() {
      this.set(!health || health.available() ? 1 : 0);
    },
  });
  if (orm) {
    const gauge = (name: string, help: string, read: (p: TarnPool) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const p = poolOf(orm);
          this.set(p ? read(p) : 0);
        },
      });
    gauge('db_pool_connections_in_use', 'Pool connections checked out', (p) => p.numUsed());
    gauge('db_pool_connections_idle', 'Open pool connections not in use', (p) => p.numFree());
    gauge(
      'db_pool_waiting',
      'Requests waiting for a pool connection',
      (p) => p.numPendingAcquires() + p.numPendingCreates(),
    );
  }
  return {
    registry,
    dbErrors,
    middleware(req, res, next) {
      const end = duration.startTimer();
      res.on('finish', () => {
        const labels = { method: req.method, route: routeLabel(req, res), status: String(res.statusCode) };
        requests.inc(labels);
        end(labels);
      });
      next();
    },
  };
}
