import { paginationHeaders } from '../../src/core/pagination/headers';
import { normalizePage } from '../../src/core/pagination/page';

describe('pagination', () => {
  it('normalizes page and per_page as GitLab does', () => {
    expect(normalizePage({})).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(normalizePage({ page: 0, perPage: 500 })).toEqual({ page: 1, perPage: 100, offset: 0 });
    expect(normalizePage({ page: 3, perPage: -5 })).toEqual({ page: 3, perPage: 20, offset: 40 });
  });

  it('builds X-* and Link headers (prev, next, first, last) keeping the query', () => {
    const h = paginationHeaders({ total: 45, page: 2, perPage: 20, totalPages: 3 }, 'http://h/api/v4/groups', new URLSearchParams('search=x&page=2'));
    expect(h).toMatchObject({ 'X-Total': '45', 'X-Total-Pages': '3', 'X-Per-Page': '20', 'X-Page': '2', 'X-Next-Page': '3', 'X-Prev-Page': '1' });
    expect(h.Link).toBe(
      '<http://h/api/v4/groups?search=x&page=1&per_page=20>; rel="prev", <http://h/api/v4/groups?search=x&page=3&per_page=20>; rel="next", ' +
        '<http://h/api/v4/groups?search=x&page=1&per_page=20>; rel="first", <http://h/api/v4/groups?search=x&page=3&per_page=20>; rel="last"',
    );
    const empty = paginationHeaders({ total: 0, page: 1, perPage: 20, totalPages: 1 }, 'http://h/x', new URLSearchParams());
    expect([empty['X-Next-Page'], empty['X-Prev-Page'], empty['X-Total-Pages']]).toEqual(['', '', '1']);
  });
});
