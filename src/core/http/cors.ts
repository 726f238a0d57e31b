import type { NextFunction, Request, Response } from 'express';

/**
 * Cross-origin use of both surfaces, as GitLab's API answers it (rack-cors in
 * GitLab's config/application.rb: `/api/*` for any origin, no credentials, any header and method,
 * pagination headers exposed): a dashboard on another origin calls `/api/v4`, `/api/v3` and
 * `/graphql` with a token header.
 *
 * - Preflights (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) are answered 204 here,
 *   before authentication, rate limits and routing.
 * - No credentials are ever allowed: the service sets no cookies and authenticates only by token, so a
 *   foreign page can do nothing a script without the token could not (docs/security.md#cross-origin-requests-cors).
 * - CORS_ORIGINS: `*` (default, GitLab's) or a comma list of origins; then only those are echoed (with
 *   `Vary: Origin`), and other origins get no CORS headers, which browsers refuse.
 */
export const EXPOSED_HEADERS = [
  'Link',
  'X-Total',
  'X-Total-Pages',
  'X-Per-Page',
  'X-Page',
  'X-Next-Page',
  'X-Prev-Page',
  'X-Request-Id',
  'Retry-After',
  'RateLimit-Name',
  'RateLimit-Limit',
  'RateLimit-Observed',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-ResetTime',
].join(', ');
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
/** How long browsers may cache a preflight (rack-cors' default). */
const MAX_AGE = '7200';
/** Request headers a preflight may ask for: any header name, bounded in size. */
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

const CORS_PATHS = /^\/(api\/v[34]\/|api\/v[34]$|graphql(\/|\?|$)|api\/graphql(\/|\?|$))/;

export function corsMiddleware(allowed: '*' | string[]) {
  const originFor = (origin: string | undefined): string | undefined => {
    if (!origin) return undefined;
    if (allowed === '*') return '*';
    return allowed.includes(origin) ? origin : undefined;
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!CORS_PATHS.test(req.url)) return next();
    const origin = req.get('origin');
    if (allowed !== '*') res.vary('Origin');
    const allow = originFor(origin);
    const preflight =
      req.method === 'OPTIONS' && origin !== undefined && req.get('access-control-request-method') !== undefined;
    if (preflight) {
      if (allow) {
        res.set('Access-Control-Allow-Origin', allow);
        res.set('Access-Control-Allow-Methods', METHODS);
        const asked = req.get('access-control-request-headers');
        if (asked && asked.length <= 2048 && HEADER_LIST.test(asked.trim()))
          res.set('Access-Control-Allow-Headers', asked.trim());
        res.set('Access-Control-Max-Age', MAX_AGE);
      }
      res.status(204).end();
      return;
    }
    if (allow) {
      res.set('Access-Control-Allow-Origin', allow);
      res.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    next();
  };
}

/** CORS_ORIGINS: unset or `*` → any origin; else a comma list of `scheme://host[:port]` origins. */
export function parseCorsOrigins(raw: string | undefined): '*' | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === '*') return '*';
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const o of list) {
    if (!/^https?:\/\/[^/\s?#]+$/.test(o))
      throw new Error(
        `CORS_ORIGINS entries must be origins such as https://dashboard.example.com (scheme, host, optional port; no path), got "${o}"`,
      );
  }
  return list;
}
