export interface PageInfo {
  total: number;
  page: number;
  perPage: number;
  totalPages: number;
}

/**
 * GitLab's offset pagination headers (gitlab-behaviour §0.7, lib/gitlab/pagination/offset_header_builder.rb).
 * `baseUrl` is the URL the client called without its query; `query` its query parameters, which the
 * Link URLs keep (page and per_page overwritten).
 */
export function paginationHeaders(info: PageInfo, baseUrl: string, query: URLSearchParams): Record<string, string> {
  query = withoutCredentials(query);
  const next = info.page < info.totalPages ? info.page + 1 : null;
  const prev = info.page > 1 && info.page <= info.totalPages ? info.page - 1 : null;
  const link = (page: number, rel: string) => {
    const q = new URLSearchParams(query);
    q.set('page', String(page));
    q.set('per_page', String(info.perPage));
    return `<${baseUrl}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (prev !== null) links.push(link(prev, 'prev'));
  if (next !== null) links.push(link(next, 'next'));
  links.push(link(1, 'first'));
  links.push(link(info.totalPages, 'last'));
  return {
    'X-Total': String(info.total),
    'X-Total-Pages': String(info.totalPages),
    'X-Per-Page': String(info.perPage),
    'X-Page': String(info.page),
    'X-Next-Page': next === null ? '' : String(next),
    'X-Prev-Page': prev === null ? '' : String(prev),
    ...bounded(links),
  };
}

/**
 * Link URLs repeat the caller's query; an overlong one (e.g. an 8,000-character search) would make a
 * header clients refuse to parse. Beyond MAX_LINK_URL characters per URL the Link header is left out;
 * X-Next-Page / X-Prev-Page still tell the client where to go.
 */
export const MAX_LINK_URL = 2048;

function bounded(links: string[]): { Link?: string } {
  return links.every((l) => l.length <= MAX_LINK_URL + 16) ? { Link: links.join(', ') } : {};
}

/** Query parameters that carry credentials (https://docs.gitlab.com/ee/api/rest/authentication.html): never copied into a link. */
export const CREDENTIAL_PARAMS = ['private_token', 'access_token', 'job_token'];

export function withoutCredentials(query: URLSearchParams): URLSearchParams {
  const q = new URLSearchParams(query);
  for (const name of CREDENTIAL_PARAMS) q.delete(name);
  return q;
}

/**
 * The base of every Link URL: the configured EXTERNAL_URL plus the path the client called, never the
 * Host or X-Forwarded-* headers. Characters outside RFC 3986's path set are percent-encoded, so the
 * path cannot close the `<…>` or split the header.
 */
export function linkBase(externalUrl: string, path: string): string {
  const safe = path.replace(/[^A-Za-z0-9\-._~!$&'()*+;=:@%/]/g, (c) => encodeURIComponent(c));
  return `${externalUrl}${safe}`;
}

/** Keyset pagination: no totals; rel="next" carries the cursor. */
export function keysetHeaders(perPage: number, nextCursor: string | null, baseUrl: string, query: URLSearchParams): Record<string, string> {
  const headers: Record<string, string> = { 'X-Per-Page': String(perPage) };
  if (nextCursor) {
    const q = withoutCredentials(query);
    q.set('cursor', nextCursor);
    q.set('per_page', String(perPage));
    Object.assign(headers, bounded([`<${baseUrl}?${q.toString()}>; rel="next"`]));
  }
  return headers;
}
