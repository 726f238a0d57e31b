import express, { type Router } from 'express';
import type { Orm } from '../core/db/orm';
import type { Metrics } from './metrics';

/** Ops endpoints outside /api/v4 (plain express, outside GraphQL). */
export function opsRouter(orm: Orm, metrics: Metrics): Router {
  const router = express.Router();
  router.get('/-/health', (_req, res) => {
    res.type('text/plain').send('GitLab OK');
  });
  router.get('/-/liveness', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/-/readiness', async (_req, res) => {
    try {
      await orm.em.getConnection().execute('select 1', [], 'all');
      res.json({ status: 'ok', master_check: [{ status: 'ok' }] });
    } catch (e) {
      res.status(503).json({ status: 'failed', master_check: [{ status: 'failed', message: e instanceof Error ? e.message : 'database unavailable' }] });
    }
  });
  router.get('/-/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
