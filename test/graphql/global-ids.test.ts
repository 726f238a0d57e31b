import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createGroup, createUser } from '../support/factories';

/** Issue 23 item 1: global ids behind a Node interface, node/nodes, fullPath lookups (README "Global ids and lookups"). */
const t = useTestApp();

describe('global ids', () => {
  it('Group and its Namespace share the gid; REST keeps the numeric id', async () => {
    const g = await createGroup(t, { path: 'acme', visibility: 'public' });
    const res = (await api(t, ROOT_TOKEN).graphql(`{ group(id: "acme") { id databaseId } namespace(fullPath: "acme") { id databaseId } }`).expect(200)).body;
    expect(res.data.group).toEqual({ id: `gid://gitlab/Group/${g.id}`, databaseId: g.id });
    expect(res.data.namespace).toEqual({ id: `gid://gitlab/Group/${g.id}`, databaseId: g.id });
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}`).expect(200)).body;
    expect(rest.id).toBe(g.id);
    const node = (await api(t).graphql(`{ node(id: "gid://gitlab/Group/${g.id}") { __typename id ... on Group { fullPath } } }`).expect(200)).body;
    expect(node.errors).toBeUndefined();
    expect(node.data.node).toEqual({ __typename: 'Group', id: `gid://gitlab/Group/${g.id}`, fullPath: 'acme' });
  });
});
