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
        userSshKeys(userId: $id) { count nodes { id: databaseId title key fingerprint createdAt } }
        sshKey(id: $keyId) { id: databaseId title user { id: databaseId username email } }
        userEmails(userId: $id) { count nodes { id: databaseId email confirmedAt } }
      }`,
        { id: u.id, keyId: key.id },
      )
      .expect(200);
    expect(byAdmin.body.errors).toBeUndefined();
    expect(byAdmin.body.data).toEqual({
      userSshKeys: {
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
      sshKey: {
        id: key.id,
        title: 'laptop',
        user: { id: u.id, username: u.username, email: `${u.username}@example.com` },
      },
      userEmails: { count: 1, nodes: [{ id: email.id, email: 'alt@example.com', confirmedAt: null }] },
    });
    const own = await api(t, u.token).graphql(
      `query($keyId: KeyID!, $emailId: EmailID!) {
        currentUserSshKeys { nodes { id: databaseId } } currentUserSshKey(keyId: $keyId) { title }
        currentUserEmails { nodes { email } } currentUserEmail(emailId: $emailId) { id: databaseId }
      }`,
      { keyId: key.id, emailId: email.id },
    );
    expect(own.body.data).toEqual({
      currentUserSshKeys: { nodes: [{ id: key.id }] },
      currentUserSshKey: { title: 'laptop' },
      currentUserEmails: { nodes: [{ email: 'alt@example.com' }] },
      currentUserEmail: { id: email.id },
    });
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
    expect((await api(t).graphql('{ currentUserSshKeys { count } }')).body.errors[0].extensions.code).toBe(
      'UNAUTHENTICATED',
    );
    expect(
      (await api(t, u.token).graphql(`{ userEmails(userId: ${u.id}) { count } }`)).body.errors[0].extensions.code,
    ).toBe('FORBIDDEN');
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
