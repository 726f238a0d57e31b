import { paginationHeaders } from '../../src/core/pagination/headers';
import { COUNT_LIMIT, makePage, normalizePage } from '../../src/core/pagination/page';
import { matchFirstKeysetSql, matchFirstPageSql, matchFirstRows } from '../../src/core/pagination/match-first';

describe('pagination', () => {
  it('normalizes page and per_page as GitLab does', () => {
    expect(normalizePage({})).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(normalizePage({ page: 0, perPage: 500 })).toEqual({ page: 1, perPage: 100, offset: 0 });
    expect(normalizePage({ page: 3, perPage: -5 })).toEqual({ page: 3, perPage: 20, offset: 40 });
  });

  it('builds X-* and Link headers (prev, next, first, last) keeping the query', () => {
    const h = paginationHeaders(
      { total: 45, page: 2, perPage: 20, totalPages: 3 },
      'http://h/api/v4/groups',
      new URLSearchParams('search=x&page=2'),
    );
    expect(h).toMatchObject({
      'X-Total': '45',
      'X-Total-Pages': '3',
      'X-Per-Page': '20',
      'X-Page': '2',
      'X-Next-Page': '3',
      'X-Prev-Page': '1',
    });
    expect(h.Link).toBe(
      '<http://h/api/v4/groups?search=x&page=1&per_page=20>; rel="prev", <http://h/api/v4/groups?search=x&page=3&per_page=20>; rel="next", ' +
        '<http://h/api/v4/groups?search=x&page=1&per_page=20>; rel="first", <http://h/api/v4/groups?search=x&page=3&per_page=20>; rel="last"',
    );
    const empty = paginationHeaders(
      { total: 0, page: 1, perPage: 20, totalPages: 1 },
      'http://h/x',
      new URLSearchParams(),
    );
    expect([empty['X-Next-Page'], empty['X-Prev-Page'], empty['X-Total-Pages']]).toEqual(['', '', '1']);
  });

  it('above COUNT_LIMIT rows: no totals, next from the extra row, no prev past the end (GitLab without_count)', () => {
    const req = normalizePage({ page: 3, perPage: 2 });
    expect(makePage([1, 2, 3], COUNT_LIMIT + 1, req)).toMatchObject({
      nodes: [1, 2],
      total: null,
      totalPages: null,
      hasNextPage: true,
      pagination: 'OFFSET',
    });
    expect(makePage([1, 2], COUNT_LIMIT + 1, req)).toMatchObject({ total: null, hasNextPage: false });
    expect(makePage([1, 2, 3], COUNT_LIMIT, req)).toMatchObject({
      nodes: [1, 2],
      total: COUNT_LIMIT,
      totalPages: COUNT_LIMIT / 2,
      hasNextPage: true,
    });
    const h = paginationHeaders(
      { total: null, totalPages: null, page: 3, perPage: 2, hasNextPage: true, hasRows: true },
      'http://h/x',
      new URLSearchParams('a=1'),
    );
    expect(h).toEqual({
      'X-Per-Page': '2',
      'X-Page': '3',
      'X-Next-Page': '4',
      'X-Prev-Page': '2',
      Link: '<http://h/x?a=1&page=2&per_page=2>; rel="prev", <http://h/x?a=1&page=4&per_page=2>; rel="next", <http://h/x?a=1&page=1&per_page=2>; rel="first"',
    });
    const past = paginationHeaders(
      { total: null, totalPages: null, page: 9, perPage: 2, hasNextPage: false, hasRows: false },
      'http://h/x',
      new URLSearchParams(),
    );
    expect([past['X-Next-Page'], past['X-Prev-Page'], past.Link]).toEqual([
      '',
      '',
      '<http://h/x?page=1&per_page=2>; rel="first"',
    ]);
  });

  it('link URLs keep the query in place as URLSearchParams#set does: page/per_page where the caller put them, repeats dropped', () => {
    // What each link was built with before (a URLSearchParams copy per link), for the same queries.
    const naive = (query: string, page: number, perPage: number) => {
      const q = new URLSearchParams(query);
      q.set('page', String(page));
      q.set('per_page', String(perPage));
      return `http://h/x?${q.toString()}`;
    };
    const queries = [
      '',
      'page=2',
      'per_page=5&search=a b',
      'page=1&x=%26&page=3&per_page=7&per_page=8',
      'a=1&b=&c',
      'xpage=0&page_size=2&search=page%3D1',
      's=%F0%9F%98%80+%2B',
    ];
    for (const query of queries) {
      const h = paginationHeaders(
        { total: 100, page: 2, perPage: 10, totalPages: 10 },
        'http://h/x',
        new URLSearchParams(query),
      );
      const expected = [
        [1, 'prev'],
        [3, 'next'],
        [1, 'first'],
        [10, 'last'],
      ]
        .map(([n, rel]) => `<${naive(query, n as number, 10)}>; rel="${rel}"`)
        .join(', ');
      expect([query, h.Link]).toEqual([query, expected]);
    }
  });
});

describe('matchFirstPageSql', () => {
  const q = (orderBy: string, dir: 'asc' | 'desc') => ({
    select: 'x.*',
    from: 'things x',
    where: ['x.kind = ?', 'x.name ilike ?'],
    params: ['k', '%a%'],
    orderBy,
    dir,
    id: 'x.id',
    selective: ['x.name ilike ?'],
    map: (r: Record<string, unknown>) => r,
  });

  it("sorts the count's matches by the list's order: each part with its direction, the last one and the id with the list's", () => {
    const { sql, params } = matchFirstPageSql(
      q('x.kind desc nulls last, coalesce(x.a, x.b)', 'asc'),
      'x.kind = ? and x.name ilike ?',
      21,
      40,
    );
    const columns = 'x.id as page_id, x.kind as page_o0, coalesce(x.a, x.b) as page_o1';
    expect(sql).toContain(`select ${columns} from things x where x.kind = ? and x.name ilike ? limit 10001`);
    expect(sql).toContain('order by page_o0 desc nulls last, page_o1 asc, page_id asc limit 21 offset 40');
    // the walk: the other filters as its condition, the selective one checked per row, at most 10,000 rows
    expect(sql).toContain(`select ${columns}, (x.name ilike ?) as page_hit from things x where x.kind = ?`);
    expect(sql).toContain('order by x.kind desc nulls last, coalesce(x.a, x.b) asc, x.id asc limit 10000');
    // every match, read only when the walk fell short
    expect(sql).toContain(
      `page_all as materialized (select ${columns} from things x where x.kind = ? and x.name ilike ?)`,
    );
    // the matches' filter, the walk's (selective first: it is in the select list), every match's
    expect(params).toEqual(['k', '%a%', '%a%', 'k', 'k', '%a%']);
  });

  it('gives a deep page a longer walk: 20 rows per row the page needs', () => {
    const { sql } = matchFirstPageSql(q('x.name', 'asc'), 'x.kind = ? and x.name ilike ?', 101, 19_900);
    expect(sql).toContain('order by x.name asc, x.id asc limit 400020)');
  });

  it('walks a short way first on a keyset page, then counts, then walks as far as a count reads, then reads every match', () => {
    const { sql, params } = matchFirstKeysetSql(q('x.name', 'desc'), 21);
    // the probe: 20 rows per page row, no gate
    expect(sql).toContain('order by x.name desc, x.id desc limit 420) page_steps where page_hit and true');
    expect(sql).toContain('(select page_id from page_probe where (select count(*) from page_probe) = 21)');
    // the bounded matches only when the probe fell short, sorted when they are all the matches
    expect(sql).toContain('limit 10001) page_counted where (select count(*) from page_probe) < 21)');
    expect(sql).toContain(
      'where (select count(*) from page_probe) < 21 and (select page_n from page_count) <= 10000 order by page_o0 desc, page_id desc limit 21',
    );
    // above 10,000 matches the walk of a count's length, then every match
    expect(sql).toContain(
      'limit 10000) page_steps where page_hit and (select count(*) from page_probe) < 21 and (select page_n from page_count) > 10000',
    );
    expect(sql).toContain(
      'from page_all where (select count(*) from page_probe) < 21 and (select page_n from page_count) > 10000 and (select count(*) from page_walk) < 21',
    );
    // probe (selective in its select list first), matches, walk, every match
    expect(params).toEqual(['%a%', 'k', 'k', '%a%', '%a%', 'k', 'k', '%a%']);
  });

  it('refuses a filter whose placeholders do not match its params', () => {
    expect(() => matchFirstKeysetSql({ ...q('x.id', 'asc'), params: ['k'] }, 21)).toThrow(/placeholders/);
  });

  it('orders by the id alone when the list is ordered by its id', () => {
    const { sql } = matchFirstPageSql(q('x.id', 'desc'), 'x.kind = ? and x.name ilike ?', 21, 0);
    expect(sql).toContain('select x.id as page_id from things x');
    expect(sql).toContain('order by page_id desc limit 21 offset 0');
  });

  it('reads the total from the first row and drops the empty row of an empty page', () => {
    expect(matchFirstRows([{ page_total: '7', page_rn: null, id: null }])).toEqual({ total: 7, rows: [] });
    expect(
      matchFirstRows([
        { page_total: '2', page_rn: '1', id: 4 },
        { page_total: '2', page_rn: '2', id: 3 },
      ]),
    ).toEqual({ total: 2, rows: [{ id: 4 }, { id: 3 }] });
  });
});
