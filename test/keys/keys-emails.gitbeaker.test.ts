import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gitlab } from '@gitbeaker/rest';
import { SSH_KEYS } from '../support/ssh-keys';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/** An unmodified client (gitbeaker, over real HTTP) drives GitLab 10.3's SSH key and e-mail routes. */
const t = {} as TestApp;
let server: http.Server;
let host: string;

beforeAll(async () => {
  server = http.createServer((req, res) => t.app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(t, await setupTestApp({ externalUrl: host }));
  await t.reset();
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

it('gitbeaker adds, lists, shows and removes SSH keys and e-mails', async () => {
  const admin = new Gitlab({ host, token: ROOT_TOKEN });
  const user = await admin.Users.create({
    email: 'gb@example.com',
    username: 'gb',
    name: 'Gitbeaker',
    password: 'secret123',
  });
  const key = await admin.UserSSHKeys.create('laptop', SSH_KEYS.ec521.key, { userId: user.id });
  expect(key).toMatchObject({ title: 'laptop', key: SSH_KEYS.ec521.key });
  expect((await admin.UserSSHKeys.all({ userId: user.id })).map((k) => k.id)).toEqual([key.id]);
  expect((await admin.Keys.show({ keyId: key.id })).user).toMatchObject({ id: user.id, username: 'gb' });
  const email = await admin.UserEmails.create('GB2@example.com', { userId: user.id });
  expect(email).toEqual({ id: email.id, email: 'gb2@example.com' });

  const token = await admin.UserImpersonationTokens.create(user.id, 'client', ['api']);
  const me = new Gitlab({ host, token: token.token as string });
  const own = await me.UserSSHKeys.create('own', SSH_KEYS.ed25519.key);
  expect((await me.UserSSHKeys.show(own.id)).title).toBe('own');
  expect((await me.UserSSHKeys.all()).map((k) => k.title)).toEqual(['laptop', 'own']);
  await me.UserSSHKeys.remove(own.id);
  const ownEmail = await me.UserEmails.create('own@example.com');
  expect((await me.UserEmails.show(ownEmail.id)).email).toBe('own@example.com');
  await me.UserEmails.remove(ownEmail.id);
  expect((await me.UserEmails.all()).map((e) => e.email)).toEqual(['gb2@example.com']);

  await admin.UserSSHKeys.remove(key.id, { userId: user.id });
  await admin.UserEmails.remove(email.id, { userId: user.id });
  expect(await admin.UserSSHKeys.all({ userId: user.id })).toEqual([]);
  expect(await admin.UserEmails.all({ userId: user.id })).toEqual([]);
});
