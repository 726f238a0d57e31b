import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { buildDist, freshDatabase, getOnce } from '../reliability/service-process';
import { client, startInstance, type Instance } from '../scale-out/topology';
import { buildRelease, currentVersion, previousRelease, ROOT, type Release } from './previous-release';
import { releaseLoad, type LoadResult } from './release-load';

// Release N-1 (CHANGELOG.md's previous release, built from its commit) and this release N on one
// database, in both orders, under load: docs/operations.md#upgrades-and-rollbacks.
jest.setTimeout(300_000);

const LOAD_MS = 6000;
const HEAD = execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim().slice(0, 11);

let previous: Release;
let previousMain: string;
const started: Instance[] = [];
const drops: (() => Promise<void>)[] = [];

beforeAll(() => {
  previous = previousRelease(); // fails, never skips, when the clone lacks the commit
  buildDist();
  previousMain = path.join(buildRelease(previous), 'dist/main.js');
});

afterAll(async () => {
  await Promise.all(started.map((i) => i.dispose()));
  for (const drop of drops) await drop();
});

async function database(prefix: string): Promise<string> {
  const db = await freshDatabase(prefix);
  drops.push(db.drop);
  return db.url;
}

async function start(which: 'current' | 'previous', databaseUrl: string, workers = 0): Promise<Instance> {
  const inst = await startInstance(
    which,
    { DATABASE_URL: databaseUrl, WORKERS: String(workers) },
    which === 'previous' ? { main: previousMain } : {},
  );
  started.push(inst);
  return inst;
}

async function registrationToken(i: Instance): Promise<string> {
  const c = client(i.port);
  try {
    return (await c.call('GET', '/api/v4/application/settings')).body.runners_registration_token as string;
  } finally {
    c.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every request answered 2xx, and enough of them that each scenario ran through each instance. */
function expectAllServed(r: LoadResult, atLeast: number): void {
  expect(r.failures.slice(0, 5)).toEqual([]);
  // A rare deadlock answered 409 "retry" and retried; many would be a lock-order clash between releases.
  if (r.retries.length) console.log(`retried after 409: ${JSON.stringify(r.retries)}`);
  expect(r.retries.length).toBeLessThanOrEqual(Math.max(2, r.requests / 100));
  expect(r.requests).toBeGreaterThanOrEqual(atLeast);
}

/** What one release wrote, read through another: runners verify, groups and projects answer. */
async function expectReadable(on: Instance, written: LoadResult['written']): Promise<void> {
  const c = client(on.port);
  try {
    for (const r of written.runners.slice(-5))
      expect([r.via, (await c.call('POST', '/api/v4/runners/verify', { token: r.token })).status]).toEqual([
        r.via,
        200,
      ]);
    for (const g of written.groups.slice(-5)) {
      const res = await c.call('GET', `/api/v4/groups/${g.id}`);
      expect([g.via, res.status, res.body.path]).toEqual([g.via, 200, g.path]);
    }
    for (const p of written.projects.slice(-5))
      expect([p.via, (await c.call('GET', `/api/v4/projects/${p.id}`)).status]).toEqual([p.via, 200]);
  } finally {
    c.close();
  }
}

describe(`the previous release and this one on one database`, () => {
  it('this release reports itself: /version, the metric and the start-up line', async () => {
    // Under the supervisor: the primary's line, and the workers' metrics in one scrape.
    const current = await start('current', await database('upgrade_version'), 1);
    const line = current.proc.lines.find((l) => String(l.msg).startsWith('listening on'))!;
    expect([line.version, line.revision]).toEqual([currentVersion(), HEAD]);
    const c = client(current.port);
    try {
      const version = await c.call('GET', '/api/v4/version');
      expect(version.body).toEqual({ version: `10.3.0+gitlab-admin.${currentVersion()}`, revision: HEAD });
    } finally {
      c.close();
    }
    const metrics = await getOnce(current.port, '/-/metrics');
    expect(metrics.body).toContain(
      `gitlab_build_info{version="${currentVersion()}",revision="${HEAD}",gitlab_version="10.3.0+gitlab-admin.${currentVersion()}",worker="0"} 1`,
    );
    await current.dispose();
  });

  it('N-1 joins a database N migrated, both serve under load; N stops and N-1 serves on (rollback)', async () => {
    const url = await database('upgrade_n_first');
    const current = await start('current', url);
    // A migration of a later release that N-1 does not know: it starts all the same (and runs no `down`).
    const pg = new Client({ connectionString: url });
    await pg.connect();
    await pg.query(`insert into mikro_orm_migrations (name) values ('Migration29991231000000_later_release')`);
    await pg.end();
    const prior = await start('previous', url);
    expect(prior.proc.lines.filter((l) => l.level >= 50)).toEqual([]);
    // N-1 says which release it is (0.1.0 had no /version yet: 404).
    const p = client(prior.port);
    const priorVersion = await p.call('GET', '/api/v4/version');
    p.close();
    if (priorVersion.status !== 404)
      expect(String(priorVersion.body.version).endsWith(`+gitlab-admin.${previous.version}`)).toBe(true);

    const both = releaseLoad(
      [
        { name: 'current', port: current.port },
        { name: 'previous', port: prior.port },
      ],
      await registrationToken(current),
      'nfirst',
    );
    await sleep(LOAD_MS);
    const together = await both.finish();
    expectAllServed(together, 100);
    const c = client(current.port);
    const secret = { captcha_private_key: `written-by-current-${Date.now()}` };
    expect((await c.call('PUT', '/api/v4/application/settings', secret)).status).toBe(200);
    c.close();

    // Rollback: N stops; N-1 serves what N wrote (a sealed credential too), and goes on writing.
    expect(await current.stop()).toEqual({ code: 0, signal: null });
    await expectReadable(prior, together.written);
    const back = client(prior.port);
    expect((await back.call('GET', '/api/v4/application/settings')).body.captcha_private_key).toBe(
      secret.captcha_private_key,
    );
    back.close();
    const alone = releaseLoad([{ name: 'previous', port: prior.port }], await registrationToken(prior), 'rolledback');
    await sleep(LOAD_MS / 2);
    expectAllServed(await alone.finish(), 30);
    expect(prior.proc.lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it("N starts on N-1's database and data while N-1 serves under load; both serve; N-1 stops (upgrade done)", async () => {
    const url = await database('upgrade_prior_first');
    const prior = await start('previous', url);
    // N-1's data: what it wrote under load, and a sealed settings credential.
    const fill = releaseLoad([{ name: 'previous', port: prior.port }], await registrationToken(prior), 'filled');
    await sleep(LOAD_MS / 2);
    const filled = await fill.finish();
    expectAllServed(filled, 30);
    const p = client(prior.port);
    const secret = { captcha_private_key: `upgrade-${Date.now()}` };
    expect((await p.call('PUT', '/api/v4/application/settings', secret)).status).toBe(200);
    p.close();

    // N starts (and runs its migrations) while N-1 is under load.
    const during = releaseLoad([{ name: 'previous', port: prior.port }], await registrationToken(prior), 'during');
    const current = await start('current', url);
    const duringStart = await during.finish();
    expectAllServed(duringStart, 1);
    expect(current.proc.lines.filter((l) => l.level >= 50)).toEqual([]);
    await expectReadable(current, filled.written);
    await expectReadable(current, duringStart.written);
    const c = client(current.port);
    expect((await c.call('GET', '/api/v4/application/settings')).body.captcha_private_key).toBe(
      secret.captcha_private_key,
    );
    c.close();

    const both = releaseLoad(
      [
        { name: 'previous', port: prior.port },
        { name: 'current', port: current.port },
      ],
      await registrationToken(current),
      'pfirst',
    );
    await sleep(LOAD_MS);
    expectAllServed(await both.finish(), 100);

    expect(await prior.stop()).toEqual({ code: 0, signal: null });
    const alone = releaseLoad([{ name: 'current', port: current.port }], await registrationToken(current), 'upgraded');
    await sleep(LOAD_MS / 2);
    expectAllServed(await alone.finish(), 30);
  });
});
