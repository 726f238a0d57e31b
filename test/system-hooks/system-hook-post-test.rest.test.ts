import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createUser } from '../support/factories';

/** Current GitLab's test route POST /hooks/:hook_id (lib/api/hooks/test.rb), delivered to a loopback receiver. */
const t = useTestApp({ env: { SYSTEM_HOOK_TIMEOUT_MS: '2000' } });
const admin = () => api(t, ROOT_TOKEN);
const TEST_EVENT = {
  event_name: 'project_create',
  name: 'Ruby',
  path: 'ruby',
  project_id: 1,
  owner_name: 'Someone',
  owner_email: 'example@gitlabhq.com',
};

describe('POST /hooks/:id', () => {
  it("sends GitLab's test event to the hook now and answers it with 201", async () => {
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
      await admin().put('/api/v4/application/settings').send({ allow_local_requests_from_system_hooks: true });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const hook = (await admin().post('/api/v4/hooks').send({ url }).expect(201)).body;
      const res = await admin().post(`/api/v4/hooks/${hook.id}`).expect(201);
      expect(res.body).toEqual(TEST_EVENT);
      expect(got).toEqual([TEST_EVENT]);
      const logs = (await admin().get(`/api/v4/hooks/${hook.id}/events`).expect(200)).body;
      expect(logs[0]).toMatchObject({ trigger: 'system_hooks', response_status: 200 });
    } finally {
      await admin().put('/api/v4/application/settings').send({ allow_local_requests_from_system_hooks: false });
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('401 anonymous, 403 non-admin, 404 unknown hook, 400 a bad id', async () => {
    const u = await createUser(t);
    await api(t).post('/api/v4/hooks/1').expect(401, { message: '401 Unauthorized' });
    await api(t, u.token).post('/api/v4/hooks/1').expect(403, { message: '403 Forbidden' });
    await admin().post('/api/v4/hooks/4242').expect(404, { message: '404 Not found' });
    await admin().post('/api/v4/hooks/abc').expect(400, { error: 'id is invalid' });
  });
});
