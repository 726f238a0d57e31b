import type { NextFunction, Request, Response } from 'express';

/** Directives every policy ends with: no framing, no <base> or form hijacking. */
const LOCKDOWN = "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** JSON and plain responses: nothing may load or run (docs/security.md#headers). */
export const API_CSP = `default-src 'none'; ${LOCKDOWN}`;

/** Swagger UI (/api/v4/docs): its bundle and init script from this origin, inline styles, data: icons. */
export const SWAGGER_CSP = `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; ${LOCKDOWN}`;

/**
 * The dashboard page (/-/dashboard, docs/dashboard.md): its one script and one stylesheet from this
 * origin, no inline code, requests (POST /graphql and the WebSocket) only to this origin, and Trusted
 * Types with no policy, so that no HTML string can ever reach innerHTML or another DOM sink.
 */
export const DASHBOARD_CSP = `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; require-trusted-types-for 'script'; trusted-types 'none'; ${LOCKDOWN}`;

/**
 * Headers on every response: no MIME sniffing, no framing (X-Frame-Options for old browsers,
 * CSP frame-ancestors for current ones), no Referer to other sites, and a CSP that HTML pages override.
 */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Content-Security-Policy', API_CSP);
  next();
}

/** Replaces the default policy for the routes it is mounted on (the HTML pages). */
export function withCsp(policy: string) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Content-Security-Policy', policy);
    next();
  };
}

export { LOCKDOWN as CSP_LOCKDOWN };
