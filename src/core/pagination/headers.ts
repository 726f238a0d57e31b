export interface PageInfo {
  /** null when more than COUNT_LIMIT rows match: X-Total, X-Total-Pages and rel="last" are left out. */
  total: number | null;
  page: number;
  perPage: number;
  totalPages: number | null;
  /** Without a total: whether a next page exists (read from one row more than per_page). */
  hasNextPage?: boolean;
  /** Without a total: whether this page has rows (a page past the end has no previous page, as Kaminari's without_count). */
  hasRows?: boolean;
}

/**
 * GitLab's offset pagination headers (gitlab-behaviour §0.7, lib/gitlab/pagination/offset_header_builder.rb).
 * `baseUrl` is the URL the client called without its query; `query` its query parameters, which the
 * Link URLs keep (page and per_page overwritten). Without a total (above COUNT_LIMIT rows), GitLab's
 * `data_without_counts`: no X-Total, X-Total-Pages nor rel="last"; next and prev from the rows read.
 */
export function paginationHeaders(info: PageInfo, baseUrl: string, query: URLSearchParams): Record<string, string> {
  query = withoutCredentials(query);
  const counted = info.total !== null && info.totalPages !== null;
  const hasNext = counted ? info.page < info.totalPages! : !!info.hasNextPage;
  const hasPrev = info.page > 1 && (counted ? info.page <= info.totalPages! : !!info.hasRows);
  const next = hasNext ? info.page + 1 : null;
  const prev = hasPrev ? info.page - 1 : null;
  const url = pageUrl(baseUrl, query, info.perPage);
  const link = (page: number, rel: string) => `<${url(page)}>; rel="${rel}"`;
  const links: string[] = [];
  if (prev !== null) links.push(link(prev, 'prev'));
  if (next !== null) links.push(link(next, 'next'));
  links.push(link(1, 'first'));
  if (counted) links.push(link(info.totalPages!, 'last'));
  const totals: Record<string, string> = counted
    ? { 'X-Total': String(info.total), 'X-Total-Pages': String(info.totalPages) }
    : {};
  return {
    ...totals,
    'X-Per-Page': String(info.perPage),
    'X-Page': String(info.page),
    'X-Next-Page': next === null ? '' : String(next),
    'X-Prev-Page': prev === null ? '' : String(prev),
    ...bounded(links),
  };
}

/**
 * The URL of page `n`: the caller's query with `page` and `per_page` set as URLSearchParams#set sets
 * them (the first occurrence keeps its place, repeats go, a missing one is appended), serialized once
 * per request rather than once per link: only the page number differs between the links.
 */
function pageUrl(baseUrl: string, query: URLSearchParams, perPage: number): (n: number) => string {
  query.set('page', '0');
  query.set('per_page', String(perPage));
  const pairs = query.toString().split('&');
  // `page` is the one key named so after set(): its pair is the only one starting with "page=".
  const at = pairs.findIndex((p) => p.startsWith('page='));
  const before = `${baseUrl}?${pairs
    .slice(0, at)
    .map((p) => `${p}&`)
    .join('')}page=`;
  const after = pairs
    .slice(at + 1)
    .map((p) => `&${p}`)
    .join('');
  return (n) => `${before}${n}${after}`;
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

/**
 * Keyset pagination: no totals; rel="next" carries the next page's position, `next` (the parameters set
 * on the caller's query: `cursor`, or GitLab's `id_after` / `id_before` for projects), null on the last page.
 */
export function keysetHeaders(
  perPage: number,
  next: Record<string, string> | null,
  baseUrl: string,
  query: URLSearchParams,
): Record<string, string> {
  const headers: Record<string, string> = { 'X-Per-Page': String(perPage) };
  if (next) {
    const q = withoutCredentials(query);
    for (const [name, value] of Object.entries(next)) q.set(name, value);
    q.set('per_page', String(perPage));
    Object.assign(headers, bounded([`<${baseUrl}?${q.toString()}>; rel="next"`]));
  }
  return headers;
}
