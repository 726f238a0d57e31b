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
    Link: links.join(', '),
  };
}
