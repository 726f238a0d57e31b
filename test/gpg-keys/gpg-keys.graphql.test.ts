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
      'mutation($u: UserID!, $k: String!) { createUserGpgKey(userId: $u, input: { key: $k }) { id: databaseId key fingerprint primaryKeyid createdAt } }',
      { u: me.id, k: BOB.key },
    );
    const key = created.body.data.createUserGpgKey;
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
      '{ currentUserGpgKeys { total nodes { id: databaseId key createdAt } } currentUserGpgKey(keyId: ' +
        key.id +
        ') { id: databaseId } }',
    );
    expect(mine.body.data).toEqual({
      currentUserGpgKeys: { total: 1, nodes: [{ id: key.id, key: BOB.key, createdAt: key.createdAt }] },
      currentUserGpgKey: { id: key.id },
    });
    const listed = await admin().graphql(`{ userGpgKeys(userId: ${me.id}, perPage: 5) { nodes { id: databaseId } } }`);
    expect(listed.body.data.userGpgKeys.nodes).toEqual([{ id: key.id }]);
    const own = await api(t, me.token).graphql(
      'mutation($k: String!) { createCurrentUserGpgKey(input: { key: $k }) { id } }',
      { k: ALICE.key },
    );
    const alice = own.body.data.createCurrentUserGpgKey.id;
    expect(
      (await api(t, me.token).graphql(`mutation { revokeCurrentUserGpgKey(keyId: "${alice}") }`)).body.data,
    ).toEqual({ revokeCurrentUserGpgKey: true });
    expect(
      (await admin().graphql(`mutation { deleteUserGpgKey(userId: ${me.id}, keyId: ${key.id}) }`)).body.data,
    ).toEqual({ deleteUserGpgKey: true });
    expect((await api(t, me.token).get('/api/v4/user/gpg_keys').expect(200)).body).toEqual([]);
  });

  it("answers with GitLab's errors as codes: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, BAD_USER_INPUT", async () => {
    const me = await createUser(t);
    const code = (res: { body: { errors: { extensions: { code: string } }[] } }) => res.body.errors[0].extensions.code;
    expect(code(await api(t).graphql('{ currentUserGpgKeys { total } }'))).toBe('UNAUTHENTICATED');
    expect(code(await api(t, me.token).graphql(`{ userGpgKeys(userId: ${me.id}) { total } }`))).toBe('FORBIDDEN');
    expect(code(await api(t, me.token).graphql('{ currentUserGpgKey(keyId: 1) { id } }'))).toBe('NOT_FOUND');
    expect(code(await admin().graphql(`mutation { revokeUserGpgKey(userId: 424242, keyId: 1) }`))).toBe('NOT_FOUND');
    const bad = await api(t, me.token).graphql(
      'mutation { createCurrentUserGpgKey(input: { key: "-----BEGIN PGP PUBLIC KEY BLOCK-----\\n\\nAAAA\\n-----END PGP PUBLIC KEY BLOCK-----" }) { id } }',
    );
    expect(code(bad)).toBe('BAD_USER_INPUT');
    expect(bad.body.errors[0].extensions.fields).toEqual({
      fingerprint: ["can't be blank"],
      primary_keyid: ["can't be blank"],
    });
  });
});
