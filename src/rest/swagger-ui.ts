import path from 'node:path';
import express, { type Router } from 'express';

/** Swagger UI served from the swagger-ui-dist package (no CDN), reading /api/v4/openapi.json. */
export function swaggerUiRouter(): Router {
  const router = express.Router();
  const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/', (_req, res) => {
    res.type('html').send(`<!doctype html>
<html><head><meta charset="utf-8"><title>API v4 — Swagger UI</title>
<link rel="stylesheet" href="/api/v4/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/v4/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/v4/docs/init.js"></script>
</body></html>`);
  });
  router.get('/init.js', (_req, res) => {
    // Tags start collapsed: with every tag expanded Swagger UI 5 stopped rendering operations past about
    // 130 of them (the rest of the page stayed empty in Chromium); one click opens a tag.
    res
      .type('application/javascript')
      .send(
        `window.ui = SwaggerUIBundle({ url: '/api/v4/openapi.json', dom_id: '#swagger-ui', validatorUrl: null, docExpansion: 'none' });`,
      );
  });
  router.use('/assets', express.static(dist, { index: false }));
  return router;
}
