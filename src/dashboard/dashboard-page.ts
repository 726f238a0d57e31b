import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';

/**
 * The reference dashboard at /-/dashboard (docs/dashboard.md): one HTML page, one script and one
 * stylesheet from src/dashboard/assets, which talk to the public API only (POST /graphql and the
 * GraphQL WebSocket). No server-side data: what the page shows is what the caller's token may read.
 *
 * The assets are read from the source tree (the same path from src/ under jest and from dist/ after
 * `npm run build`, which compiles TypeScript only), once, on the first request.
 */
const ASSETS = path.join(__dirname, '..', '..', 'src', 'dashboard', 'assets');

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  /** The first 12 hex digits of the content's SHA-256: the page asks for `?v=<version>`. */
  version: string;
}

let assets: Record<'html' | 'js' | 'css', Asset> | undefined;

function load(file: string, type: string): Asset {
  const body = fs.readFileSync(path.join(ASSETS, file));
  const digest = crypto.createHash('sha256').update(body).digest('hex');
  return { body, type, etag: `"${digest.slice(0, 32)}"`, version: digest.slice(0, 12) };
}

function loaded(): Record<'html' | 'js' | 'css', Asset> {
  if (assets) return assets;
  const js = load('dashboard.js', 'application/javascript; charset=utf-8');
  const css = load('dashboard.css', 'text/css; charset=utf-8');
  const template = fs.readFileSync(path.join(ASSETS, 'index.html'), 'utf8');
  // The versioned URLs let browsers keep the script and stylesheet for a year: a new build is a new URL.
  const html = Buffer.from(template.replace('{{js}}', js.version).replace('{{css}}', css.version));
  const digest = crypto.createHash('sha256').update(html).digest('hex');
  assets = {
    html: {
      body: html,
      type: 'text/html; charset=utf-8',
      etag: `"${digest.slice(0, 32)}"`,
      version: digest.slice(0, 12),
    },
    js,
    css,
  };
  return assets;
}

/** The page is revalidated on every load (ETag, 304); the versioned script and stylesheet are immutable. */
function send(req: Request, res: Response, asset: Asset, cache: string): void {
  res.locals.route = `GET ${req.baseUrl}${req.path === '/' ? '' : req.path}`; // the metrics label (ops/metrics.ts)
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Cache-Control', cache);
  res.setHeader('ETag', asset.etag);
  if (req.get('if-none-match') === asset.etag) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Length', asset.body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : asset.body);
}

export function dashboardRouter(): Router {
  const router = express.Router();
  router.get('/', (req, res) => send(req, res, loaded().html, 'no-cache'));
  router.get('/dashboard.js', (req, res) =>
    send(
      req,
      res,
      loaded().js,
      req.query.v === loaded().js.version ? 'public, max-age=31536000, immutable' : 'no-cache',
    ),
  );
  router.get('/dashboard.css', (req, res) =>
    send(
      req,
      res,
      loaded().css,
      req.query.v === loaded().css.version ? 'public, max-age=31536000, immutable' : 'no-cache',
    ),
  );
  return router;
}
