import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { buildDist, freshDatabase } from '../reliability/service-process';
import { client, startInstance, TOKEN, type Instance } from '../scale-out/topology';
import { backupLines, runCli, tableCounts, writeBackupLines } from './commands';

// npm run backup / restore / secrets:backup (docs/operations.md#backup, #restore, #keys): an online backup
// under a continuous writer, restored into a fresh DATABASE_URL and into a fresh embedded DATA_DIR.
jest.setTimeout(300_000);

beforeAll(() => buildDist());

const KEY_A = '1'.repeat(64);
const KEY_B = '2'.repeat(64);

type Api = ReturnType<typeof client>;

/** Every group an admin lists (pages of 100). */
async function allGroups(c: Api): Promise<{ id: number; parent_id: number | null; full_path: string }[]> {
  const out: { id: number; parent_id: number | null; full_path: string }[] = [];
  for (let page = 1; ; page++) {
    const r = await c.call('GET', `/api/v4/groups?all_available=true&per_page=100&page=${page}&order_by=id`);
    expect(r.status).toBe(200);
    out.push(...r.body);
    if (r.body.length < 100) return out;
  }
}

const groupShape = (g: Record<string, unknown>) => ({
  id: g.id,
  name: g.name,
  full_path: g.full_path,
  parent_id: g.parent_id,
  description: g.description,
  visibility: g.visibility,
  created_at: g.created_at,
});

/** One sequential writer: a top-level group, then a subgroup of it, and so on, until `stop`. */
function startWriter(c: Api) {
  const created: number[] = [];
  let running = true;
  let failure: string | undefined;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const parent = i % 2 === 1 ? created[created.length - 1] : undefined;
      const r = await c.call('POST', '/api/v4/groups', {
        name: `w${i}`,
        path: `w${i}`,
        ...(parent ? { parent_id: parent } : {}),
      });
      if (r.status !== 201) failure = `${r.status} ${JSON.stringify(r.body)}`;
      else created.push(r.body.id);
    }
  })();
  return {
    created,
    async stop() {
      running = false;
      await done;
      expect(failure).toBeUndefined();
    },
  };
}

async function usersIn(url: string): Promise<number> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const t = await c.query(`select to_regclass('public.users')::text as t`);
    return t.rows[0].t ? Number((await c.query('select count(*) as n from users')).rows[0].n) : 0;
  } finally {
    await c.end();
  }
}

describe('npm run backup and npm run restore', () => {
  it('backs up under write load and restores every row and sealed secret into a fresh database and a fresh DATA_DIR', async () => {
    const source = await freshDatabase('backup_src');
    const target = await freshDatabase('backup_dst');
    const damaged = await freshDatabase('backup_bad');
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-embedded-'));
    fs.chmodSync(dataDir, 0o755);
    const file = path.join(work, 'data.backup');
    const secretsFile = path.join(work, 'secrets.json');
    const instances: Instance[] = [];
    try {
      const src = await startInstance('backup-src', { DATABASE_URL: source.url, SECRETS_KEY: KEY_A });
      instances.push(src);
      const a = client(src.port);
      // Sealed values: a runner token, the registration token, a settings credential, a project's runners token.
      const settings = await a.call('PUT', '/api/v4/application/settings', {
        captcha_enabled: true,
        captcha_site_key: 'site-key',
        captcha_private_key: 'private-captcha-key',
      });
      expect(settings.status).toBe(200);
      const registration = settings.body.runners_registration_token;
      const runner = (await a.call('POST', '/api/v4/runners', { token: registration, description: 'kept' })).body;
      const project = (await a.call('POST', '/api/v4/projects', { name: 'p', path: 'p' })).body;
      expect(project.runners_token).toEqual(expect.any(String));

      const writer = startWriter(a);
      while (writer.created.length < 20) await new Promise((r) => setTimeout(r, 50));
      const before = writer.created.length;
      const backup = await runCli('backup', [file], { DATABASE_URL: source.url });
      const after = writer.created.length;
      while (writer.created.length < after + 4) await new Promise((r) => setTimeout(r, 50));
      await writer.stop();
      expect({ status: backup.status, stderr: backup.stderr }).toEqual({ status: 0, stderr: '' });
      expect(after).toBeGreaterThan(before); // groups were created while the backup ran
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.existsSync(`${file}.partial`)).toBe(false);
      const lines = backupLines(file);
      // Never the key: neither its hex form nor the secrets in clear.
      const text = lines.join('\n');
      for (const secret of [KEY_A, runner.token, registration, 'private-captcha-key', project.runners_token])
        expect(text).not.toContain(secret);
      const backedUp = tableCounts(backup.stdout);

      const secrets = await runCli('secrets:backup', [secretsFile], { SECRETS_KEY: KEY_A });
      expect({ status: secrets.status, stderr: secrets.stderr }).toEqual({ status: 0, stderr: '' });

      // A key that is not the backup's: refused before anything is written.
      const wrongKey = await runCli('restore', [file], { DATABASE_URL: target.url, SECRETS_KEY: KEY_B });
      expect(wrongKey.status).toBe(2);
      expect(wrongKey.stderr).toContain('SECRETS_KEY is not the secrets key of this backup');
      expect(await usersIn(target.url)).toBe(0);

      const restore = await runCli('restore', [file], { DATABASE_URL: target.url, SECRETS_KEY: KEY_A });
      expect({ status: restore.status, stderr: restore.stderr }).toEqual({ status: 0, stderr: '' });
      expect(tableCounts(restore.stdout)).toEqual(backedUp);
      expect(restore.stdout).toContain('counts and checksums verified');
      process.stdout.write(
        `backup: ${backup.ms} ms, ${fs.statSync(file).size} bytes, ${Object.values(backedUp).reduce((x, y) => x + y, 0)} rows; restore: ${restore.ms} ms\n`,
      );

      const again = await runCli('restore', [file], { DATABASE_URL: target.url, SECRETS_KEY: KEY_A });
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('the target database already has users');

      // One altered row: the checksum differs, nothing is kept.
      const altered = lines.map((l) => (l.includes('"name": "w3"') ? l.replace('"name": "w3"', '"name": "w3x"') : l));
      expect(altered).not.toEqual(lines);
      const badFile = path.join(work, 'altered.backup');
      writeBackupLines(badFile, altered);
      const bad = await runCli('restore', [badFile], { DATABASE_URL: damaged.url, SECRETS_KEY: KEY_A });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('namespaces: ');
      expect(bad.stderr).toContain('with another checksum: the file is damaged or was altered; nothing was restored');
      expect(await usersIn(damaged.url)).toBe(0);
      // A cut file: incomplete.
      const cutFile = path.join(work, 'cut.backup');
      writeBackupLines(cutFile, lines.slice(0, -2));
      const cut = await runCli('restore', [cutFile], { DATABASE_URL: damaged.url, SECRETS_KEY: KEY_A });
      expect(cut.status).toBe(1);
      expect(cut.stderr).toContain('ends early: the backup is incomplete');
      expect(await usersIn(damaged.url)).toBe(0);

      // Bytes of the gzip stream flipped: its check fails.
      const flipped = fs.readFileSync(file);
      flipped[Math.floor(flipped.length / 2)] ^= 0xff;
      const flippedFile = path.join(work, 'flipped.backup');
      fs.writeFileSync(flippedFile, flipped);
      const broken = await runCli('restore', [flippedFile], { DATABASE_URL: damaged.url, SECRETS_KEY: KEY_A });
      expect(broken.status).toBe(1);
      // The gzip check, or a garbled record it let through first: nothing is kept either way.
      expect(broken.stderr).toMatch(
        /^restore failed: .*(is damaged \(.+\): not a complete backup|the file is damaged)/,
      );
      expect(await usersIn(damaged.url)).toBe(0);

      // The embedded default: a fresh DATA_DIR, the key from the secrets backup.
      const embedded = await runCli('restore', [file, '--secrets', secretsFile], { DATA_DIR: dataDir });
      expect({ status: embedded.status, stderr: embedded.stderr }).toEqual({ status: 0, stderr: '' });
      expect(tableCounts(embedded.stdout)).toEqual(backedUp);
      expect(fs.readFileSync(path.join(dataDir, 'secrets.key'), 'utf8')).toBe(KEY_A);

      const sourceGroups = await allGroups(a);
      const restoredOn = [
        await startInstance('backup-dst', { DATABASE_URL: target.url, SECRETS_KEY: KEY_A }),
        await startInstance('backup-embedded', { DATABASE_URL: '', SECRETS_KEY: '', DATA_DIR: dataDir }),
      ];
      instances.push(...restoredOn);
      for (const inst of restoredOn) {
        const b = client(inst.port);
        try {
          const groups = await allGroups(b);
          // One snapshot: the writer's groups up to some point, every subgroup's parent with it.
          const ids = new Set(groups.map((g) => g.id));
          const mine = writer.created.filter((id) => ids.has(id));
          expect(mine).toEqual(writer.created.slice(0, mine.length));
          expect(mine.length).toBeGreaterThanOrEqual(before);
          expect(mine.length).toBeLessThanOrEqual(after);
          for (const g of groups) if (g.parent_id) expect(ids.has(g.parent_id)).toBe(true);
          expect(groups.map((g) => g.id)).toEqual(sourceGroups.filter((g) => ids.has(g.id)).map((g) => g.id));
          for (const id of [mine[0], mine[1], mine[mine.length - 1]]) {
            const [x, y] = await Promise.all([
              a.call('GET', `/api/v4/groups/${id}`),
              b.call('GET', `/api/v4/groups/${id}`),
            ]);
            expect(groupShape(y.body)).toEqual(groupShape(x.body));
          }
          // Sealed secrets open: the runner's token, the settings credential, the project's token.
          expect((await b.call('POST', '/api/v4/runners/verify', { token: runner.token })).status).toBe(200);
          const restoredSettings = (await b.call('GET', '/api/v4/application/settings')).body;
          expect(restoredSettings.captcha_private_key).toBe('private-captcha-key');
          expect(restoredSettings.runners_registration_token).toBe(registration);
          expect((await b.call('GET', `/api/v4/projects/${project.id}`)).body.runners_token).toBe(
            project.runners_token,
          );
          expect((await b.call('GET', '/api/v4/user', undefined, { 'PRIVATE-TOKEN': TOKEN })).body.username).toBe(
            'root',
          );
          // New ids continue after the restored ones.
          const next = await b.call('POST', '/api/v4/groups', { name: 'after', path: 'after' });
          expect(next.status).toBe(201);
          expect(next.body.id).toBeGreaterThan(Math.max(...ids));
        } finally {
          b.close();
        }
      }
      a.close();
    } finally {
      for (const inst of instances) await inst.dispose();
      await source.drop();
      await target.drop();
      await damaged.drop();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
