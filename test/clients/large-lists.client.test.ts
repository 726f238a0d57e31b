import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gitlab } from '@gitbeaker/rest';
import { addBulkProjects } from '../support/bulk';
import { createGroup } from '../support/factories';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/**
 * Unmodified clients walk the first pages of a list above GitLab's 10,000-row count
 * limit (no X-Total, X-Total-Pages nor rel="last"): gitbeaker and python-gitlab follow rel="next",
 * python-gitlab's `total` is None. And keyset pages of GET /projects. 10,050 projects,
 * inserted with generate_series, served on a real port (Link URLs come from EXTERNAL_URL).
 */
const t = {} as TestApp;
let server: http.Server;
let host: string;

beforeAll(async () => {
  server = http.createServer((req, res) => t.app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(t, await setupTestApp({ externalUrl: host }));
  await t.reset();
  const group = await createGroup(t, { path: 'bulk', visibility: 'public' });
  await addBulkProjects(t, group.id, 1, 10_050, 'public');
}, 60000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]);

describe('gitbeaker on a list above 10,000 rows', () => {
  it('walks the first three offset pages by rel="next"; the totals are unknown', async () => {
    const api = new Gitlab({ host, token: ROOT_TOKEN });
    const { data, paginationInfo } = await api.Projects.all({
      perPage: 100,
      maxPages: 3,
      orderBy: 'id',
      sort: 'asc',
      showExpanded: true,
    });
    const ids = data.map((p) => p.id as number);
    expect(ids).toHaveLength(300);
    expect(ascending(ids)).toBe(true);
    // gitbeaker reads the absent X-Total and X-Total-Pages as NaN.
    expect(paginationInfo).toEqual({ current: 3, next: 4, previous: 2, perPage: 100, total: NaN, totalPages: NaN });
  });

  it('walks keyset pages of GET /projects by the id_after links', async () => {
    const api = new Gitlab({ host, token: ROOT_TOKEN });
    const projects = await api.Projects.all({
      pagination: 'keyset',
      orderBy: 'id',
      sort: 'asc',
      perPage: 100,
      maxPages: 3,
    });
    const ids = projects.map((p) => p.id as number);
    expect(ids).toHaveLength(300);
    expect(ascending(ids)).toBe(true);
  });
});

/** Debian's python3-gitlab (3.12); the interpreter on PATH may be another Python without it. */
const python = pythonGitlab('on a list above 10,000 rows');
const describePython = python.describe;

const SCRIPT = `
import json, sys, warnings
import gitlab
warnings.simplefilter("error")  # a base-URL mismatch in Link headers would be a warning
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
offset = gl.projects.list(iterator=True, per_page=100, order_by="id", sort="asc")
out = {"total": offset.total, "total_pages": offset.total_pages, "current_page": offset.current_page,
       "next_page": offset.next_page, "prev_page": offset.prev_page, "per_page": offset.per_page}
ids = []
for p in offset:
    ids.append(p.id)
    if len(ids) == 250:
        break
out["ids"] = ids
out["page_after"] = offset.current_page
keyset = gl.projects.list(iterator=True, pagination="keyset", order_by="id", sort="desc", per_page=100)
out["keyset_total"] = keyset.total
out["keyset_ids"] = [p.id for _, p in zip(range(250), keyset)]
print(json.dumps(out))
`;

describePython('python-gitlab on a list above 10,000 rows', () => {
  it('walks the first pages with total None, offset and keyset', async () => {
    const stdout = await python.run(SCRIPT, [host, ROOT_TOKEN]);
    const out = JSON.parse(stdout) as Record<string, unknown> & { ids: number[]; keyset_ids: number[] };
    expect(out).toMatchObject({
      total: null,
      total_pages: null,
      current_page: 1,
      next_page: 2,
      prev_page: null,
      per_page: 100,
      page_after: 3,
      keyset_total: null,
    });
    expect(out.ids).toHaveLength(250);
    expect(ascending(out.ids)).toBe(true);
    expect(out.keyset_ids).toHaveLength(250);
    expect(ascending([...out.keyset_ids].reverse())).toBe(true);
    expect(out.keyset_ids[0]).toBe(Math.max(...out.ids, ...out.keyset_ids));
  });
});
