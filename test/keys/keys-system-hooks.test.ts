import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../reliability/fault-support';
import { createUser } from '../support/factories';
import { SSH_KEYS } from '../support/ssh-keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GitLab 10.3's SystemHooksService for a Key: key_create and key_destroy with key, id and username. */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

it('sends key_create and key_destroy to system hooks', async () => {
  const got: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await admin()
      .put('/api/v4/application/settings')
      .send({ allow_local_requests_from_system_hooks: true })
      .expect(200);
    await admin()
      .post('/api/v4/hooks')
      .send({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` })
      .expect(201);
    const u = await createUser(t);
    const k = (
      await api(t, u.token).post('/api/v4/user/keys').send({ key: SSH_KEYS.ed25519.key, title: 'hooked' }).expect(201)
    ).body;
    await api(t, u.token).delete(`/api/v4/user/keys/${k.id}`).expect(204);
    await waitFor('two key events', () => got.length >= 2, 10000);
    const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const payload = { created_at: at, updated_at: at, key: SSH_KEYS.ed25519.key, id: k.id, username: u.username };
    expect(got).toEqual([
      { event_name: 'key_create', ...payload },
      { event_name: 'key_destroy', ...payload },
    ]);
    // Deleting a user destroys its keys first (key_destroy each), then user_destroy, as 10.3's dependent: :destroy.
    const k2 = (
      await api(t, u.token).post('/api/v4/user/keys').send({ key: SSH_KEYS.ed25519b.key, title: 'second' }).expect(201)
    ).body;
    await admin().delete(`/api/v4/users/${u.id}`).expect(204);
    await waitFor('user deletion events', () => got.length >= 5, 10000);
    expect(got.slice(2).map((e) => [e.event_name, e.id ?? e.user_id])).toEqual([
      ['key_create', k2.id],
      ['key_destroy', k2.id],
      ['user_destroy', u.id],
    ]);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
