import { addBulkSubgroups } from '../support/bulk';
import { createGroup, type TestGroup } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * GitLab's rule for big lists, applied to the group lists, including the batched nested pages (`Group.subgroups` of every
 * group of a list: one bounded count per parent): above 10,000 rows no totals, below them exact ones.
 */
const t = useTestApp({ reset: 'once' });
let big: TestGroup;
let small: TestGroup;

beforeAll(async () => {
  big = await createGroup(t, { path: 'big', name: 'Big', visibility: 'public' });
  small = await createGroup(t, { path: 'small', name: 'Small', visibility: 'public' });
  await addBulkSubgroups(t, big, 1, 10_001);
  await addBulkSubgroups(t, small, 1, 3);
}, 60000);

describe('subgroups above 10,000 rows', () => {
  it('REST: no X-Total, X-Total-Pages nor rel="last"; next page known', async () => {
    const res = await api(t).get(`/api/v4/groups/${big.id}/subgroups?per_page=100&page=100`).expect(200);
    expect(res.body).toHaveLength(100);
    expect(res.headers['x-total']).toBeUndefined();
    expect(res.headers['x-total-pages']).toBeUndefined();
    expect(res.headers).toMatchObject({ 'x-page': '100', 'x-next-page': '101', 'x-prev-page': '99' });
    expect(res.headers.link).not.toContain('rel="last"');
    const small3 = await api(t).get(`/api/v4/groups/${small.id}/subgroups`).expect(200);
    expect(small3.headers).toMatchObject({ 'x-total': '3', 'x-total-pages': '1' });
  });

  it('GraphQL nested pages of several parents: each its own bounded count', async () => {
    const q = `{ groups(orderBy: ID, first: 2) { nodes { path subgroups(first: 100) { count pageInfo { hasNextPage } nodes { id } } } } }`;
    const { result, count } = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q).expect(200));
    expect(result.body.errors).toBeUndefined();
    const nodes = result.body.data.groups.nodes.map(
      (g: {
        path: string;
        subgroups: { count: number | null; pageInfo: { hasNextPage: boolean }; nodes: unknown[] };
      }) => [g.path, g.subgroups.count, g.subgroups.pageInfo.hasNextPage, g.subgroups.nodes.length],
    );
    expect(nodes).toEqual([
      ['big', null, true, 100],
      ['small', 3, false, 3],
    ]);
    expect(count).toBeLessThan(10);
    // The last page of the big list (the 10,001st subgroup): still no count, no next page.
    const last = (
      await api(t, ROOT_TOKEN)
        .graphql(
          `{ group(id: "${big.id}") { subgroups(last: 1) { count pageInfo { hasNextPage hasPreviousPage } nodes { id } } } }`,
        )
        .expect(200)
    ).body;
    expect(last.errors).toBeUndefined();
    expect(last.data.group.subgroups).toMatchObject({
      count: null,
      pageInfo: { hasNextPage: false, hasPreviousPage: true },
      nodes: [expect.anything()],
    });
  });
});
