import crypto from 'node:crypto';

export function digestToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** GitLab-style personal access token value: prefix + 20 url-safe characters. */
export function generateToken(): string {
  return `glpat-${crypto.randomBytes(15).toString('base64url')}`;
}

export interface TokenSource {
  header(name: string): string | undefined;
  param(name: string): unknown;
}

/**
 * PRIVATE-TOKEN header, then `Authorization: Bearer`, then the private_token / access_token params
 * (docs/gitlab-compatibility.md, "Authentication"). Returns undefined when no credential was supplied at all.
 */
export function extractToken(src: TokenSource): string | undefined {
  const header = src.header('private-token');
  if (header !== undefined) return header;
  const auth = src.header('authorization');
  if (auth !== undefined) {
    const m = /^Bearer\s+(.*)$/i.exec(auth);
    return m ? m[1].trim() : auth;
  }
  for (const name of ['private_token', 'access_token']) {
    const v = src.param(name);
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/** What `requestToken` reads of a request (an express Request, or the fields a WebSocket handshake supplies). */
export interface TokenCarrier {
  get(name: string): string | undefined;
  query?: unknown;
  body?: unknown;
}

const fieldsOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The token a request carries: headers, then the query string and, with `body`, the JSON, form or
 * multipart body once it has been read (a query parameter wins over a body one).
 */
export function requestToken(req: TokenCarrier, opts: { body: boolean }): string | undefined {
  const query = fieldsOf(req.query);
  const body = opts.body ? fieldsOf(req.body) : {};
  return extractToken({ header: (n) => req.get(n), param: (n) => query[n] ?? body[n] });
}
