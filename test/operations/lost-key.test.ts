import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDist, freshDatabase, MAIN, spawnNode } from '../reliability/service-process';
import { client, startInstance, TOKEN, type Instance } from '../scale-out/topology';
import { issue } from '../support/certificates';
import { backupLines, runCli } from './commands';

// A lost secrets key (docs/operations.md#keys): the start refuses another key (exit 2);
// npm run secrets:reset-lost resets what that key cannot open, records an audit event, and the start
// succeeds. And npm run secrets:backup: the key apart from the data, matched by its key check.
jest.setTimeout(300_000);

beforeAll(() => buildDist());

const KEY_A = 'a1'.repeat(32);
const KEY_B = 'b2'.repeat(32);

describe('npm run secrets:reset-lost', () => {
  it('resets the sealed values a new key cannot open, so the service starts again, and records it', async () => {
    const db = await freshDatabase('lost_key');
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lost-key-'));
    const instances: Instance[] = [];
    try {
      const first = await startInstance('key-a', { DATABASE_URL: db.url, SECRETS_KEY: KEY_A });
      instances.push(first);
      const a = client(first.port);
      const settings = await a.call('PUT', '/api/v4/application/settings', {
        captcha_enabled: true,
        captcha_site_key: 'site-key',
        captcha_private_key: 'private-captcha-key',
        allow_local_requests_from_system_hooks: true,
      });
      expect(settings.status).toBe(200);
      const registration = settings.body.runners_registration_token;
      const runner = (await a.call('POST', '/api/v4/runners', { token: registration, description: 'lost' })).body;
      const hook = await a.call('POST', '/api/v4/hooks', { url: 'http://127.0.0.1:9/hook', token: 'hook-secret' });
      expect(hook.status).toBe(201);
      const project = (await a.call('POST', '/api/v4/projects', { name: 'p', path: 'p' })).body;
      expect(project.runners_token).toEqual(expect.any(String));
      const cert = await issue({ cn: 'lost.test' });
      const domain = await a.call('POST', `/api/v4/projects/${project.id}/pages/domains`, {
        domain: 'lost.test',
        certificate: cert.pem,
        key: cert.keyPem,
      });
      expect(domain.status).toBe(201);
      a.close();

      // The secrets backup matches the data backup of the same database by its key check.
      const dataFile = path.join(work, 'data.backup');
      const secretsFile = path.join(work, 'secrets.json');
      expect((await runCli('backup', [dataFile], { DATABASE_URL: db.url })).status).toBe(0);
      const written = await runCli('secrets:backup', [secretsFile], {
        SECRETS_KEY: KEY_A,
        SECRETS_KEY_PREVIOUS: KEY_B,
      });
      expect({ status: written.status, stderr: written.stderr }).toEqual({ status: 0, stderr: '' });
      expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
      const saved = JSON.parse(fs.readFileSync(secretsFile, 'utf8'));
      expect(saved).toMatchObject({ secrets_key: KEY_A, secrets_key_previous: [KEY_B], source: 'SECRETS_KEY' });
      const manifest = JSON.parse(backupLines(dataFile)[0].slice(1));
      expect(saved.key_check).toBe(manifest.key_check);
      expect((await runCli('secrets:backup', [secretsFile], { SECRETS_KEY: KEY_A })).status).toBe(2); // exists

      await first.stop();
      // Key A lost: with key B the start refuses (configuration, exit 2).
      const refused = spawnNode(MAIN, { ...first.env, SECRETS_KEY: KEY_B });
      expect(await refused.exited).toEqual({ code: 2, signal: null });

      const unknownAuthor = await runCli('secrets:reset-lost', ['--by', 'nobody'], {
        DATABASE_URL: db.url,
        SECRETS_KEY: KEY_B,
      });
      expect(unknownAuthor.status).toBe(2);
      expect(unknownAuthor.stderr).toContain('no administrator with the username nobody');

      const reset = await runCli('secrets:reset-lost', ['--by', 'root'], { DATABASE_URL: db.url, SECRETS_KEY: KEY_B });
      expect({ status: reset.status, stderr: reset.stderr }).toEqual({ status: 0, stderr: '' });
      for (const line of [
        'application_settings.runners_registration_token_sealed: 1 reset',
        'application_settings.captcha_private_key_sealed: 1 reset',
        'ci_runners.token: 1 reset',
        'projects.runners_token: 1 reset',
        'system_hooks.token_sealed: 1 reset',
        'pages_domains.sealed_key: 1 reset',
        'every runner must be registered again',
      ])
        expect(reset.stdout).toContain(line);

      const second = await startInstance('key-b', { DATABASE_URL: db.url, SECRETS_KEY: KEY_B });
      instances.push(second);
      const b = client(second.port);
      try {
        expect((await b.call('POST', '/api/v4/runners/verify', { token: runner.token })).status).toBe(403);
        const after = (await b.call('GET', '/api/v4/application/settings')).body;
        expect(after).toMatchObject({
          captcha_enabled: false,
          captcha_private_key: null,
          captcha_site_key: 'site-key',
        });
        expect(after.runners_registration_token).toEqual(expect.any(String));
        expect(after.runners_registration_token).not.toBe(registration);
        const again = await b.call('POST', '/api/v4/runners', { token: after.runners_registration_token });
        expect(again.status).toBe(201);
        expect((await b.call('POST', '/api/v4/runners/verify', { token: again.body.token })).status).toBe(200);
        const token = (await b.call('GET', `/api/v4/projects/${project.id}`)).body.runners_token;
        expect(token).toEqual(expect.any(String));
        expect(token).not.toBe(project.runners_token);
        const kept = await b.call('GET', `/api/v4/projects/${project.id}/pages/domains/lost.test`);
        expect(kept.status).toBe(200);
        expect(kept.body.certificate.certificate).toBe(cert.pem);
        const events = (await b.call('GET', '/api/v4/audit_events')).body as {
          author_id: number;
          entity_type: string;
          details: Record<string, string>;
        }[];
        const event = events.find((e) => e.details.target_type === 'SecretsKey');
        expect(event).toMatchObject({ author_id: 1, entity_type: 'Gitlab::Audit::InstanceScope' });
        expect(event!.details.custom_message).toContain('ci_runners.token 1');
        expect(event!.details.custom_message).toContain('application_settings.captcha_private_key_sealed 1');
        expect(event!.details.author_name).toBe('Administrator');
      } finally {
        b.close();
      }
      await second.stop();

      // The data backup of key A restores next to key A's secrets backup, and its tokens open again.
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lost-key-embedded-'));
      fs.chmodSync(dataDir, 0o755);
      const restored = await runCli('restore', [dataFile, '--secrets', secretsFile], { DATA_DIR: dataDir });
      expect({ status: restored.status, stderr: restored.stderr }).toEqual({ status: 0, stderr: '' });
      const third = await startInstance('key-a-again', { DATABASE_URL: '', SECRETS_KEY: '', DATA_DIR: dataDir });
      instances.push(third);
      const c = client(third.port);
      try {
        expect((await c.call('POST', '/api/v4/runners/verify', { token: runner.token })).status).toBe(200);
        expect((await c.call('GET', '/api/v4/user', undefined, { 'PRIVATE-TOKEN': TOKEN })).status).toBe(200);
      } finally {
        c.close();
      }
    } finally {
      for (const inst of instances) await inst.dispose();
      await db.drop();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('npm run restore --without-key', () => {
  it('restores next to another key only when told to, and the reset then lets the service start', async () => {
    const source = await freshDatabase('nokey_src');
    const target = await freshDatabase('nokey_dst');
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'no-key-'));
    const instances: Instance[] = [];
    try {
      const src = await startInstance('nokey-src', { DATABASE_URL: source.url, SECRETS_KEY: KEY_A });
      instances.push(src);
      await src.stop();
      const file = path.join(work, 'data.backup');
      expect((await runCli('backup', [file], { DATABASE_URL: source.url })).status).toBe(0);
      const env = { DATABASE_URL: target.url, SECRETS_KEY: KEY_B };
      const refused = await runCli('restore', [file], env);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain('--without-key');
      const restored = await runCli('restore', [file, '--without-key'], env);
      expect(restored.status).toBe(0);
      expect(restored.stdout).toContain('restoring anyway (--without-key)');
      expect((await runCli('secrets:reset-lost', [], env)).status).toBe(0);
      const dst = await startInstance('nokey-dst', env);
      instances.push(dst);
      const c = client(dst.port);
      expect((await c.call('GET', '/api/v4/application/settings')).status).toBe(200);
      c.close();
    } finally {
      for (const inst of instances) await inst.dispose();
      await source.drop();
      await target.drop();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
