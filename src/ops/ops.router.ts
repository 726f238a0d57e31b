import express, { type Router } from 'express';
import type { DbHealth } from '../core/db/db-monitor';
import type { Orm } from '../core/db/orm';
import { monitoringWhitelist } from './ip-whitelist';
import type { Metrics } from './metrics';

export interface OpsDeps {
  orm: Orm;
  metrics: Metrics;
  health?: DbHealth;
  /** CIDR list; default loopback (config.ts). */
  whitelist?: string[];
  /** The process is shutting down: readiness fails so that load balancers stop sending requests. */
  draining?: () => boolean;
}

const READINESS_TIMEOUT_MS = 1500;
const FAILED = { status: 'failed', master_check: [{ status: 'failed', message: 'database unavailable' }] };
const DRAINING = { status: 'failed', master_check: [{ status: 'failed', message: 'shutting down' }] };

function selectOne(orm: Orm): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS)));
  const query = orm.em
    .getConnection()
    .execute('select 1', [], 'all')
    .then(
      () => true,
      () => false,
    );
  return Promise.race([query, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GitLab's health endpoints (https://docs.gitlab.com/ee/administration/monitoring/health_check.html)
 * and Prometheus metrics, only for MONITORING_WHITELIST. Readiness answers within 1.5 s with a body
 * that never carries driver text; liveness fails once the embedded PostgreSQL is gone for good.
 */
export function opsRouter(deps: OpsDeps): Router {
  const { orm, metrics, health } = deps;
  const router = express.Router();
  router.use(
    ['/-/health', '/-/liveness', '/-/readiness', '/-/metrics'],
    monitoringWhitelist(deps.whitelist ?? ['127.0.0.0/8', '::1/128']),
  );
  router.get('/-/health', (_req, res) => {
    res.type('text/plain').send('GitLab OK');
  });
  router.get('/-/liveness', (_req, res) => {
    if (health && !health.live()) return void res.status(503).json({ status: 'failed' });
    res.json({ status: 'ok' });
  });
  router.get('/-/readiness', async (_req, res) => {
    if (deps.draining?.()) return void res.status(503).set('Connection', 'close').json(DRAINING);
    const ok = (!health || health.available()) && (await selectOne(orm));
    if (ok) res.json({ status: 'ok', master_check: [{ status: 'ok' }] });
    else res.status(503).json(FAILED);
  });
  router.get('/-/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
