import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloClient, HttpLink, InMemoryCache, gql, type NormalizedCacheObject } from '@apollo/client/core';
import { addGroupMember, createGroup, createUser } from '../support/factories';
import { ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

/**
 * Object identity with the real library: Apollo Client 3's normalized cache
 * (`InMemoryCache`, keyed `__typename:id` by default) no longer shows one object's data for another.
 */
describe('Apollo Client cache over the GraphQL API', () => {
  let server: http.Server;
  let uri: string;
  beforeEach(async () => {
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const client = (token: string, cache = new InMemoryCache()): ApolloClient<NormalizedCacheObject> =>
    new ApolloClient({ link: new HttpLink({ uri, fetch, headers: { 'PRIVATE-TOKEN': token } }), cache });

  it('bob as Reporter of acme and Developer of acme/platform: the cached lists keep both levels', async () => {
    const top = await createGroup(t, { path: 'acme' });
    const sub = await createGroup(t, { path: 'platform', parent: top });
    const bob = await createUser(t, { username: 'bob' });
    await addGroupMember(t, top, bob, 20);
    await addGroupMember(t, sub, bob, 30);
    const apollo = client(ROOT_TOKEN);
    const MEMBERS = gql`
      query Members($path: ID!) {
        group(fullPath: $path) {
          id
          groupMembers(relations: [DIRECT]) {
            nodes {
              id
              username
              accessLevel {
                integerValue
              }
            }
          }
        }
      }
    `;
    await apollo.query({ query: MEMBERS, variables: { path: 'acme' } });
    await apollo.query({ query: MEMBERS, variables: { path: 'acme/platform' } });
    const level = (path: string) =>
      apollo
        .readQuery<{
          group: { groupMembers: { nodes: { username: string; accessLevel: { integerValue: number } }[] } };
        }>({
          query: MEMBERS,
          variables: { path },
        })!
        .group.groupMembers.nodes.filter((n) => n.username === 'bob')
        .map((n) => n.accessLevel.integerValue);
    // Before: both entries were `Member:<bob's user id>`, so both lists read 30.
    expect([level('acme'), level('acme/platform')]).toEqual([[20], [30]]);
  });

  it("a membership listed by its group and inherited by the subgroup's list reads back from the cache as each list received it", async () => {
    const top = await createGroup(t, { path: 'acme' });
    const sub = await createGroup(t, { path: 'platform', parent: top });
    const alice = await createUser(t, { username: 'alice' });
    await addGroupMember(t, top, alice, 50);
    await addGroupMember(t, sub, await createUser(t, { username: 'bob' }), 30);
    const apollo = client(ROOT_TOKEN);
    // GitLab's member lists: direct and inherited by default; one Member (gid) per membership row.
    const LIST = gql`
      query List($path: ID!) {
        group(fullPath: $path) {
          id
          groupMembers {
            nodes {
              id
              accessLevel {
                integerValue
                stringValue
              }
              user {
                id
                username
              }
              group {
                id
                fullPath
              }
            }
          }
        }
      }
    `;
    type Data = { group: { groupMembers: { nodes: { user: { username: string } }[] } } };
    const fromServer = {
      top: (await apollo.query<Data>({ query: LIST, variables: { path: 'acme' } })).data,
      sub: (await apollo.query<Data>({ query: LIST, variables: { path: 'acme/platform' } })).data,
    };
    const alices = (d: Data) => d.group.groupMembers.nodes.filter((n) => n.user.username === 'alice');
    expect(alices(fromServer.sub)).toEqual(alices(fromServer.top));
    expect(alices(fromServer.top)).toEqual([
      expect.objectContaining({ group: expect.objectContaining({ fullPath: 'acme' }) }),
    ]);
    // The second list wrote the shared entry last: the first list still reads what it was sent.
    expect(apollo.readQuery<Data>({ query: LIST, variables: { path: 'acme' } })).toEqual(fromServer.top);
    expect(apollo.readQuery<Data>({ query: LIST, variables: { path: 'acme/platform' } })).toEqual(fromServer.sub);
  });

  it('a flag changed by a mutation updates the cached flag list (Feature has a global id)', async () => {
    const apollo = client(ROOT_TOKEN);
    const FEATURES = gql`
      query Flags {
        features(first: 100) {
          nodes {
            id
            name
            state
          }
        }
      }
    `;
    await apollo.mutate({
      mutation: gql`
        mutation {
          featureGateSet(input: { name: "beta_ui", value: "false" }) {
            feature {
              id
              name
              state
            }
            errors
          }
        }
      `,
    });
    await apollo.query({ query: FEATURES });
    await apollo.mutate({
      mutation: gql`
        mutation {
          featureGateSet(input: { name: "beta_ui", value: "true" }) {
            feature {
              id
              name
              state
            }
            errors
          }
        }
      `,
    });
    const cached = apollo.readQuery<{ features: { nodes: { name: string; state: string }[] } }>({ query: FEATURES })!;
    expect(cached.features.nodes.filter((f) => f.name === 'beta_ui').map((f) => f.state)).toEqual(['ON']);
  });

  it('a group and its namespace are one cached object when the cache keys by global id', async () => {
    await createGroup(t, { path: 'acme', name: 'Acme' });
    // Global ids are unique across types, so the cache may key by `id` alone (Apollo's dataIdFromObject).
    const apollo = client(
      ROOT_TOKEN,
      new InMemoryCache({ dataIdFromObject: (o) => (typeof o.id === 'string' ? o.id : undefined) }),
    );
    const NAMESPACE = gql`
      query Ns {
        namespace(fullPath: "acme") {
          id
          name
        }
      }
    `;
    const ns = await apollo.query<{ namespace: { id: string; name: string } }>({ query: NAMESPACE });
    const group = await apollo.query<{ group: { id: string } }>({
      query: gql`
        query G {
          group(fullPath: "acme") {
            id
            name
          }
        }
      `,
    });
    expect(group.data.group.id).toBe(ns.data.namespace.id);
    const res = await apollo.mutate<{ groupUpdate: { errors: string[] } }>({
      mutation: gql`
        mutation Rename($id: ID!) {
          groupUpdate(input: { id: $id, name: "Acme Corp" }) {
            group {
              id
              name
            }
            errors
          }
        }
      `,
      variables: { id: group.data.group.id },
    });
    expect(res.data!.groupUpdate.errors).toEqual([]);
    // The namespace query is answered from the cache and shows the new name.
    expect(apollo.readQuery<{ namespace: { name: string } }>({ query: NAMESPACE })!.namespace.name).toBe('Acme Corp');
  });
});
