import { createUser } from '../support/factories';
import { ALICE, BOB } from '../support/gpg-keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GPG keys: the GraphQL twins of the REST routes show the same keys, with the same errors. */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

describe('GraphQL GPG keys', () => {
  it('shows the same keys as REST, with fingerprint and primary key id', async () => {
    const me = await createUser(t);
    const created = await admin().graphql(
      'mutation($u: UserID!, $k: String!) { userGpgKeyCreate(input: { userId: $u, key: $k }) { gpgKey { id: databaseId key fingerprint primaryKeyid createdAt } errors } }',
      { u: me.id, k: BOB.key },
    );
    expect(created.body.data.userGpgKeyCreate.errors).toEqual([]);
    const key = created.body.data.userGpgKeyCreate.gpgKey;
    expect(key).toEqual({
      id: expect.any(Number),
      key: BOB.key,
      fingerprint: BOB.fingerprint,
      primaryKeyid: BOB.keyId,
      createdAt: expect.any(String),
    });
    const rest = (await api(t, me.token).get(`/api/v4/user/gpg_keys/${key.id}`).expect(200)).body;
    expect(rest).toEqual({ id: key.id, key: key.key, created_at: key.createdAt });
    const mine = await api(t, me.token).graphql(
      `{ currentUser { gpgKeys { count nodes { id: databaseId key createdAt } } }
        node(id: "gid://gitlab/GpgKey/${key.id}") { ... on GpgKey { id: databaseId } } }`,
    );
    expect(mine.body.data).toEqual({
      currentUser: { gpgKeys: { count: 1, nodes: [{ id: key.id, key: BOB.key, createdAt: key.createdAt }] } },
      node: { id: key.id },
    });
    const listed = await admin().graphql(`{ user(id: ${me.id}) { gpgKeys(first: 5) { nodes { id: databaseId } } } }`);
    expect(listed.body.data.user.gpgKeys.nodes).toEqual([{ id: key.id }]);
    // Another user does not see the list (nor the key by id); the list without `key` does not read the key text.
    const other = await createUser(t);
    expect(
      (
        await api(t, other.token).graphql(
          `{ user(id: ${me.id}) { gpgKeys { count } } node(id: "gid://gitlab/GpgKey/${key.id}") { id } }`,
        )
      ).body,
    ).toEqual({ data: { user: { gpgKeys: null }, node: null } });
    const short = await admin().graphql(`{ user(id: ${me.id}) { gpgKeys { nodes { fingerprint } } } }`);
    expect(short.body.data.user.gpgKeys.nodes).toEqual([{ fingerprint: BOB.fingerprint }]);
    const own = await api(t, me.token).graphql(
      'mutation($k: String!) { currentUserGpgKeyCreate(input: { key: $k }) { gpgKey { id } errors } }',
      { k: ALICE.key },
    );
    const alice = own.body.data.currentUserGpgKeyCreate.gpgKey.id;
    expect(
      (await api(t, me.token).graphql(`mutation { currentUserGpgKeyRevoke(input: { keyId: "${alice}" }) { errors } }`))
        .body,
    ).toEqual({ data: { currentUserGpgKeyRevoke: { errors: [] } } });
    expect(
      (await admin().graphql(`mutation { userGpgKeyDelete(input: { userId: ${me.id}, keyId: ${key.id} }) { errors } }`))
        .body,
    ).toEqual({ data: { userGpgKeyDelete: { errors: [] } } });
    expect((await api(t, me.token).get('/api/v4/user/gpg_keys').expect(200)).body).toEqual([]);
  });

  it("answers with GitLab's errors: NOT_FOUND codes, null for a missing key, validation messages in errors", async () => {
    const me = await createUser(t);
    const code = (res: { body: { errors: { extensions: { code: string } }[] } }) => res.body.errors[0].extensions.code;
    expect((await api(t).graphql('{ currentUser { gpgKeys { count } } }')).body).toEqual({
      data: { currentUser: null },
    });
    expect((await api(t, me.token).get(`/api/v4/users/${me.id}/gpg_keys`)).status).toBe(403);
    expect((await api(t, me.token).graphql('{ node(id: "gid://gitlab/GpgKey/1") { id } }')).body).toEqual({
      data: { node: null },
    });
    expect((await api(t, me.token).get('/api/v4/user/gpg_keys/1')).status).toBe(404);
    expect(
      code(await admin().graphql(`mutation { userGpgKeyRevoke(input: { userId: 424242, keyId: 1 }) { errors } }`)),
    ).toBe('NOT_FOUND');
    const bad = await api(t, me.token).graphql(
      'mutation { currentUserGpgKeyCreate(input: { key: "-----BEGIN PGP PUBLIC KEY BLOCK-----\\n\\nAAAA\\n-----END PGP PUBLIC KEY BLOCK-----" }) { gpgKey { id } errors } }',
    );
    expect(bad.body).toEqual({
      data: {
        currentUserGpgKeyCreate: {
          gpgKey: null,
          errors: ["Fingerprint can't be blank", "Primary keyid can't be blank"],
        },
      },
    });
  });
});
