import { createUser } from '../support/factories';
import { SSH_KEYS } from '../support/ssh-keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

describe('GraphQL SSH keys and e-mails', () => {
  it('shows the same keys and addresses as REST', async () => {
    const u = await createUser(t);
    const key = (
      await admin().post(`/api/v4/users/${u.id}/keys`).send({ key: SSH_KEYS.ed25519.key, title: 'laptop' }).expect(201)
    ).body;
    const email = (await admin().post(`/api/v4/users/${u.id}/emails`).send({ email: 'Alt@Example.com' }).expect(201))
      .body;
    const byAdmin = await admin()
      .graphql(
        `query($id: UserID!, $keyId: KeyID!) {
        user(id: $id) {
          sshKeys { count nodes { id: databaseId title key fingerprint createdAt } }
          emails { count nodes { id: databaseId email confirmedAt } }
        }
        sshKey(id: $keyId) { id: databaseId title user { id: databaseId username email } }
      }`,
        { id: u.id, keyId: key.id },
      )
      .expect(200);
    expect(byAdmin.body.errors).toBeUndefined();
    expect(byAdmin.body.data).toEqual({
      user: {
        sshKeys: {
          count: 1,
          nodes: [
            {
              id: key.id,
              title: 'laptop',
              key: key.key,
              fingerprint: SSH_KEYS.ed25519.fingerprint,
              createdAt: key.created_at,
            },
          ],
        },
        emails: { count: 1, nodes: [{ id: email.id, email: 'alt@example.com', confirmedAt: null }] },
      },
      sshKey: {
        id: key.id,
        title: 'laptop',
        user: { id: u.id, username: u.username, email: `${u.username}@example.com` },
      },
    });
    const own = await api(t, u.token).graphql(
      `query($key: ID!, $email: ID!) {
        currentUser { sshKeys { nodes { id: databaseId } } emails { nodes { email } } }
        key: node(id: $key) { ... on SshKey { title } }
        email: node(id: $email) { ... on Email { id: databaseId } }
      }`,
      { key: `gid://gitlab/Key/${key.id}`, email: `gid://gitlab/Email/${email.id}` },
    );
    expect(own.body.errors).toBeUndefined();
    expect(own.body.data).toEqual({
      currentUser: { sshKeys: { nodes: [{ id: key.id }] }, emails: { nodes: [{ email: 'alt@example.com' }] } },
      key: { title: 'laptop' },
      email: { id: email.id },
    });
    // Another user sees neither list, nor the key or address by id.
    const other = await createUser(t);
    const theirs = await api(t, other.token).graphql(
      `query($id: UserID!, $key: ID!) { user(id: $id) { username sshKeys { count } emails { count } } node(id: $key) { id } }`,
      { id: u.id, key: `gid://gitlab/Key/${key.id}` },
    );
    expect(theirs.body).toEqual({ data: { user: { username: u.username, sshKeys: null, emails: null }, node: null } });
  });

  it('lists the keys and addresses of a page of users in the same statements for 1 user and for 10', async () => {
    const users = [];
    for (let i = 0; i < 10; i += 1) {
      const u = await createUser(t);
      await admin()
        .post(`/api/v4/users/${u.id}/emails`)
        .send({ email: `alt${i}@example.com` })
        .expect(201);
      users.push(u);
    }
    const q = (n: number) =>
      `{ users(first: ${n}) { nodes { sshKeys { count } emails { count nodes { email } } gpgKeys { count } } } }`;
    await admin().graphql(q(1));
    const one = await t.countQueries(() => admin().graphql(q(1)));
    const ten = await t.countQueries(() => admin().graphql(q(10)));
    expect(ten.result.body.errors).toBeUndefined();
    expect(ten.result.body.data.users.nodes).toHaveLength(10);
    expect(ten.count).toBe(one.count);
  });

  it('writes through the same service, with the same errors (payload messages) and codes', async () => {
    const u = await createUser(t);
    const add = await api(t, u.token).graphql(
      'mutation($k: String!) { currentUserSshKeyCreate(input: { key: $k, title: "gql" }) { sshKey { id: databaseId title } errors } currentUserEmailCreate(input: { email: "g@example.com" }) { email { id: databaseId email } errors } }',
      { k: SSH_KEYS.ec256.key },
    );
    expect(add.body.errors).toBeUndefined();
    expect([add.body.data.currentUserSshKeyCreate.errors, add.body.data.currentUserEmailCreate.errors]).toEqual([
      [],
      [],
    ]);
    const sshKey = add.body.data.currentUserSshKeyCreate.sshKey;
    const addedEmail = add.body.data.currentUserEmailCreate.email;
    const rest = await api(t, u.token).get('/api/v4/user/keys').expect(200);
    expect(rest.body).toEqual([expect.objectContaining({ id: sshKey.id, title: 'gql', key: SSH_KEYS.ec256.key })]);
    expect((await api(t, u.token).get('/api/v4/user/emails')).body).toEqual([addedEmail]);

    const again = await admin().graphql(
      'mutation($id: UserID!, $k: String!) { userSshKeyCreate(input: { userId: $id, key: $k, title: "x" }) { sshKey { id } errors } }',
      { id: u.id, k: SSH_KEYS.ec256.key },
    );
    expect(again.body).toEqual({
      data: { userSshKeyCreate: { sshKey: null, errors: ['Fingerprint has already been taken'] } },
    });
    expect((await api(t).graphql('{ currentUser { sshKeys { count } } }')).body).toEqual({
      data: { currentUser: null },
    });
    expect((await api(t, u.token).get(`/api/v4/users/${u.id}/emails`)).status).toBe(403);
    // A missing key is null without an error at the root (GitLab's convention); REST answers 404.
    expect((await admin().graphql('{ sshKey(id: 4242) { id } }')).body).toEqual({ data: { sshKey: null } });
    expect((await admin().get('/api/v4/keys/4242')).status).toBe(404);
    const del = await api(t, u.token).graphql(
      'mutation($k: KeyID!, $e: EmailID!) { currentUserSshKeyDelete(input: { keyId: $k }) { errors } currentUserEmailDelete(input: { emailId: $e }) { errors } }',
      { k: sshKey.id, e: addedEmail.id },
    );
    expect(del.body).toEqual({
      data: { currentUserSshKeyDelete: { errors: [] }, currentUserEmailDelete: { errors: [] } },
    });
    expect(
      (await admin().graphql(`mutation { userEmailDelete(input: { userId: ${u.id}, emailId: 1 }) { errors } }`)).body
        .errors[0].extensions.code,
    ).toBe('NOT_FOUND');
  });
});
