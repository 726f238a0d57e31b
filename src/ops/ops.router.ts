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
  /**
   * The metrics a scrape answers: under the supervisor every worker's (ops/fleet-view.ts, through the
   * primary), undefined when they could not be gathered; default this process's registry.
   */
  metricsText?: () => Promise<string | undefined>;
}

/** An answer of /-/readiness (GitLab's body shapes). */
export interface Readiness {
  status: number;
  body: unknown;
  /** Close the connection after answering (draining). */
  close?: boolean;
}

export const READINESS_TIMEOUT_MS = 1500;
const READY: Readiness = { status: 200, body: { status: 'ok', master_check: [{ status: 'ok' }] } };
export const readinessFailed = (message: string): Readiness => ({
  status: 503,
  body: { status: 'failed', master_check: [{ status: 'failed', message }] },
});
export const READINESS_DRAINING: Readiness = { ...readinessFailed('shutting down'), close: true };

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

/** The ops endpoints of one process: the router for the main port, and what a separate listener or the supervisor asks. */
export interface Ops {
  /** /-/health, /-/liveness, /-/readiness, /-/metrics behind MONITORING_WHITELIST. */
  router: Router;
  readiness(): Promise<Readiness>;
  live(): boolean;
  metricsText(): Promise<string | undefined>;
  contentType: string;
}

/**
 * GitLab's health endpoints (https://docs.gitlab.com/ee/administration/monitoring/health_check.html)
 * and Prometheus metrics, only for MONITORING_WHITELIST. Readiness answers within 1.5 s with a body
 * that never carries driver text; liveness fails once the embedded PostgreSQL is gone for good.
 */
export function createOps(deps: OpsDeps): Ops {
  const { orm, metrics, health } = deps;
  const readiness = async (): Promise<Readiness> => {
    if (deps.draining?.()) return READINESS_DRAINING;
    const ok = (!health || health.available()) && (await selectOne(orm));
    return ok ? READY : readinessFailed('database unavailable');
  };
  const live = () => !health || health.live();
  const metricsText = deps.metricsText ?? (() => metrics.registry.metrics());
  const contentType = metrics.registry.contentType;

  const router = express.Router();
  router.use(
    ['/-/health', '/-/liveness', '/-/readiness', '/-/metrics'],
    monitoringWhitelist(deps.whitelist ?? ['127.0.0.0/8', '::1/128']),
  );
  router.get('/-/health', (_req, res) => {
    res.type('text/plain').send('GitLab OK');
  });
  router.get('/-/liveness', (_req, res) => {
    if (!live()) return void res.status(503).json({ status: 'failed' });
    res.json({ status: 'ok' });
  });
  router.get('/-/readiness', async (_req, res) => {
    const r = await readiness();
    if (r.close) res.set('Connection', 'close');
    res.status(r.status).json(r.body);
  });
  router.get('/-/metrics', async (_req, res) => {
    const text = await metricsText();
    if (text === undefined) return void res.status(503).type('text/plain').send('metrics unavailable');
    res.type(contentType).send(text);
  });
  return { router, readiness, live, metricsText, contentType };
}
