import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/core/db/embedded/embedded-postgres';
import { waitFor } from './fault-support';
import { ROOT, ROOT_TOKEN, buildDist, freshDatabase, getOnce, isRunning, type LogLine } from './service-process';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startFlags } = require('../../scripts/start-flags') as { startFlags: () => string[] };

// How process managers run the service (docs/operations.md#process-managers-and-containers): `npm start`
// stopped by a signal to npm, and the release entry `node dist/main.js` as the Dockerfile and the systemd
// unit start it. What needs a container runtime or systemd as PID 1 is not run here (the doc says so).
jest.setTimeout(120_000);

beforeAll(() => buildDist());

/** Every process below `pid` (workers, PostgreSQL and its backends), from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '(gone)';
  }
};

/** A process started with its own output parsed as the service's JSON lines. */
function launch(file: string, args: string[], opts: { cwd: string; env: Record<string, string> }) {
  const child = spawn(file, args, {
    cwd: opts.cwd,
    env: { ...process.env, LOG_LEVEL: 'info', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: LogLine[] = [];
  let text = '';
  child.stdout!.on('data', (c: Buffer) => {
    text += c.toString('utf8');
    const parts = text.split('\n');
    text = parts.pop() ?? '';
    for (const p of parts) if (p.startsWith('{')) lines.push(JSON.parse(p) as LogLine);
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, stderr: () => err, exited };
}

/** SIGTERM to `pid` alone, as a process manager stops its main process; then every process it started must end. */
async function stopsEverything(proc: ReturnType<typeof launch>, started: number[]) {
  proc.child.kill('SIGTERM');
  const exit = await proc.exited;
  await waitFor('every process the service started ends', () => started.every((p) => !isRunning(p)), 30_000).catch(
    () => undefined,
  );
  return { exit, left: started.filter(isRunning).map((p) => `${p} ${commandOf(p)}`) };
}

describe('npm start', () => {
  it('SIGTERM to npm reaches node, which stops its workers and the embedded PostgreSQL: nothing is left behind', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-npm-start-'));
    fs.chmodSync(dataDir, 0o755);
    const port = await freePort();
    const npm = launch('npm', ['start'], {
      cwd: ROOT,
      env: { DATA_DIR: dataDir, PORT: String(port), WORKERS: '2', INITIAL_ROOT_TOKEN: ROOT_TOKEN, DATABASE_URL: '' },
    });
    let started: number[] = [];
    try {
      await waitFor(
        'npm start listening',
        () =>
          npm.lines.some((l) => l.msg === `listening on http://127.0.0.1:${port} with 2 workers`) ||
          npm.child.exitCode !== null,
        90_000,
      );
      expect((await getOnce(port, '/api/v4/user', { 'private-token': ROOT_TOKEN })).status).toBe(200);
      started = descendants(npm.child.pid!);
      const commands = started.map(commandOf);
      // npm execs node (no shell in between); node runs two workers and one postmaster with its backends.
      expect(commands.filter((c) => c.startsWith('sh '))).toEqual([]);
      expect(commands.filter((c) => /^(\S*\/)?node .*dist\/main\.js$/.test(c))).toHaveLength(3);
      expect(commands.filter((c) => c.includes(`-D ${path.join(dataDir, 'postgres')}`)).length).toBeGreaterThan(0);

      const { exit, left } = await stopsEverything(npm, started);
      expect(left).toEqual([]);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(npm.lines.map((l) => l.msg)).toContain('stopped');
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    } finally {
      for (const p of [npm.child.pid!, ...started]) if (isRunning(p)) process.kill(p, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The Dockerfile's instructions of its last stage, as [keyword, rest] (continuation lines joined). */
function dockerfile(): [string, string][] {
  const text = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, '');
  const stages = text.split(/^FROM /m);
  return stages[stages.length - 1]
    .split('\n')
    .filter((l) => /^[A-Z]+ /.test(l))
    .map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1).trim()]);
}

function unitValue(key: string): string {
  const line = fs
    .readFileSync(path.join(ROOT, 'deploy/gitlab-admin.service'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${key}=`));
  return line?.slice(key.length + 1) ?? '';
}

describe('the release entry: node dist/main.js (Dockerfile, systemd unit)', () => {
  it('the image command, the unit and npm start run node with the same flags; the unit signals node alone', () => {
    const docker = dockerfile();
    const cmd = JSON.parse(docker.find(([k]) => k === 'CMD')![1]) as string[];
    expect(cmd).toEqual(['node', ...startFlags(), 'dist/main.js']);
    expect(unitValue('ExecStart').split(' ')).toEqual([
      '/usr/bin/node',
      ...startFlags(),
      '/opt/gitlab-admin/dist/main.js',
    ]);
    expect(unitValue('KillMode')).toBe('mixed');
    expect(unitValue('RestartPreventExitStatus')).toBe('2');
    const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => fs.existsSync(p));
    if (analyze && fs.existsSync('/usr/bin/node')) {
      // Offline syntax check: unknown keys and bad values are printed, not failed.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-unit-'));
      try {
        fs.copyFileSync(path.join(ROOT, 'deploy/gitlab-admin.service'), path.join(dir, 'gitlab-admin.service'));
        const r = spawnSync(analyze, ['verify', path.join(dir, 'gitlab-admin.service')], { encoding: 'utf8' });
        expect({ status: r.status, output: `${r.stdout}${r.stderr}`.trim() }).toEqual({ status: 0, output: '' });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it("the image's files alone (no TypeScript, no npm) serve, pass the health check and stop on SIGTERM to node", async () => {
    // The runtime stage's COPY lines, with node_modules linked instead of pruned.
    const release = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-release-'));
    const copies = dockerfile()
      .filter(([k]) => k === 'COPY')
      .map(([, rest]) => rest.replace('--from=build ', '').split(/\s+/));
    expect(copies.map(([from]) => from)).toEqual([
      '/app/package.json',
      '/app/node_modules',
      '/app/dist',
      '/app/src/dashboard/assets',
    ]);
    for (const [from, to] of copies) {
      const source = path.join(ROOT, from.replace('/app/', ''));
      const target = path.join(release, to.replace(/^\.\/?/, ''));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      if (from.endsWith('node_modules')) fs.symlinkSync(source, path.join(release, 'node_modules'));
      else execFileSync('cp', ['-r', source, target]);
    }
    expect(fs.existsSync(path.join(release, 'dist/main.js'))).toBe(true);
    expect(fs.existsSync(path.join(release, 'src/main.ts'))).toBe(false);

    const env = Object.fromEntries(
      dockerfile()
        .filter(([k]) => k === 'ENV')
        .flatMap(([, rest]) => rest.split(/\s+/).map((kv) => kv.split('=') as [string, string])),
    );
    const db = await freshDatabase('release');
    const port = await freePort();
    const [node, ...args] = JSON.parse(dockerfile().find(([k]) => k === 'CMD')![1]) as string[];
    expect(node).toBe('node');
    const svc = launch(process.execPath, args, {
      cwd: release,
      env: {
        ...env,
        // Tests listen on loopback only; the image's 0.0.0.0 is for its published port.
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: path.join(release, 'data'),
        DATABASE_URL: db.url,
        WORKERS: '1',
        INITIAL_ROOT_TOKEN: ROOT_TOKEN,
      },
    });
    let started: number[] = [];
    try {
      await waitFor(
        'the release listening',
        () => svc.lines.some((l) => String(l.msg).startsWith('listening on')) || svc.child.exitCode !== null,
        60_000,
      );
      expect(svc.stderr()).not.toContain('building dist/');
      const health = JSON.parse(
        dockerfile()
          .find(([k]) => k === 'HEALTHCHECK')![1]
          .replace(/^.*?CMD /, ''),
      ) as string[];
      const check = spawnSync(process.execPath, health.slice(1), {
        env: { ...process.env, PORT: String(port) },
        encoding: 'utf8',
      });
      expect(check.status).toBe(0);
      expect((await getOnce(port, '/-/dashboard/')).status).toBe(200);
      started = descendants(svc.child.pid!);
      const { exit, left } = await stopsEverything(svc, started);
      expect(left).toEqual([]);
      expect(exit).toEqual({ code: 0, signal: null });
    } finally {
      for (const p of [svc.child.pid!, ...started]) if (isRunning(p)) process.kill(p, 'SIGKILL');
      await db.drop();
      fs.rmSync(release, { recursive: true, force: true });
    }
  });
});
