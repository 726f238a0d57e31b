import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/core/db/embedded/embedded-postgres';
import { waitFor } from './fault-support';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startFlags } = require('../../scripts/start-flags') as { startFlags: () => string[] };

/** Real service processes for the supervisor tests: built dist/, spawned as `npm start` runs it. */
export const ROOT = path.resolve(__dirname, '../..');
export const DIST = path.join(ROOT, 'dist');

/**
 * dist/ as `npm start` builds it (scripts/build-if-needed.js). tsc writes the files even when another
 * part of the tree does not type-check (that is `npm run typecheck`'s job), so a failed check with a
 * fresh dist/main.js still runs.
 */
export function buildDist(): void {
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-if-needed.js')], { cwd: ROOT, stdio: 'pipe' });
  } catch (e) {
    const src = fs.statSync(path.join(ROOT, 'src/ops/supervisor.ts')).mtimeMs;
    if (!fs.existsSync(path.join(DIST, 'main.js')) || fs.statSync(path.join(DIST, 'ops/supervisor.js')).mtimeMs < src)
      throw e;
  }
}

/** A new, empty database on the run's PostgreSQL (test/setup/global-setup.js); `drop` removes it. */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_PG_URL;
  if (!base) throw new Error('TEST_PG_URL is not set: run the tests through jest');
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const creator = new Client({ connectionString: base });
  await creator.connect();
  await creator.query(`create database ${name}`).finally(() => creator.end());
  const url = new URL(base);
  url.pathname = `/${name}`;
  // Sessions of a killed process end when PostgreSQL notices the closed socket: wait for that (bounded)
  // instead of terminating them, which the run's PostgreSQL would log as FATAL lines.
  const drop = async () => {
    const c = new Client({ connectionString: base });
    await c.connect();
    try {
      await waitFor(
        'the sessions of the stopped service end',
        async () =>
          (await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name])).rows[0].n === 0,
        5000,
      ).catch(() => undefined);
      await c.query(`drop database if exists ${name} with (force)`);
    } finally {
      await c.end();
    }
  };
  return { url: url.toString(), drop };
}

export type LogLine = Record<string, unknown> & { level: number; msg: string; time: string };

export interface RunningProcess {
  child: ChildProcess;
  /** JSON log lines of stdout, in arrival order (primary and workers share it). */
  lines: LogLine[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first line matching `pred` (waiting for it up to `limitMs`). */
  line(what: string, pred: (l: LogLine) => boolean, limitMs?: number): Promise<LogLine>;
}

/** node <script> with the `npm start` node flags and `env` added to this process's environment. */
export function spawnNode(script: string, env: Record<string, string>, args: string[] = []): RunningProcess {
  const child = spawn(process.execPath, [...startFlags(), ...args, script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let err = '';
  let rest = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    for (const p of parts) if (p.startsWith('{')) lines.push(JSON.parse(p) as LogLine);
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    async line(what, pred, limitMs = 30000) {
      let found: LogLine | undefined;
      // A process ended by a signal has no exit code: its signal ends the wait as well.
      const ended = () => child.exitCode !== null || child.signalCode !== null;
      await waitFor(what, () => (found = lines.find(pred)) !== undefined || ended(), limitMs);
      if (!found)
        throw new Error(`process exited (${child.exitCode ?? child.signalCode}) before logging: ${what}\n${err}`);
      return found;
    },
  };
}

/** One GET on a new connection (no keep-alive: each poll is a new connection the primary hands out). */
export function getOnce(
  port: number,
  urlPath: string,
  headers: Record<string, string> = {},
  timeoutMs = 5000,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        agent: false,
        headers: { connection: 'close', ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

export const MAIN = path.join(DIST, 'main.js');
export const ROOT_TOKEN = 'supervisor-test-root-token-0123';

/**
 * `npm start` (dist/main.js) with WORKERS=2 on a fresh database; resolves when the primary says every
 * worker listens. `nodeArgs` go before the script (a preload, heap flags: the last heap flag wins).
 */
export async function startService(
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<{ svc: RunningProcess; port: number; drop: () => Promise<void> }> {
  const db = await freshDatabase('supervisor');
  const port = await freePort();
  const svc = spawnNode(
    MAIN,
    { DATABASE_URL: db.url, PORT: String(port), WORKERS: '2', INITIAL_ROOT_TOKEN: ROOT_TOKEN, ...env },
    nodeArgs,
  );
  await svc.line(
    'all workers listening',
    (l) => l.msg === `listening on http://127.0.0.1:${port} with 2 workers`,
    60_000,
  );
  return { svc, port, drop: db.drop };
}

/** Workers that listen and have not died or exited yet (worker id → pid), from the primary's lines. */
export function servingWorkers(svc: RunningProcess): Map<number, number> {
  const serving = new Map<number, number>();
  for (const l of svc.lines) {
    const msg = String(l.msg);
    if (msg === 'worker listening') serving.set(l.worker as number, l.pid as number);
    else if (msg.startsWith('worker died') || msg.startsWith('worker exited') || msg === 'worker stopped')
      serving.delete(l.worker as number);
  }
  return serving;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** inode of the server side of the TCP connection from `clientPort` to `serverPort` (/proc/net/tcp, tcp6). */
function serverSocketInode(serverPort: number, clientPort: number): string | undefined {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = row.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(`:${hex(serverPort)}`) && f[2].endsWith(`:${hex(clientPort)}`)) return f[9];
    }
  }
  return undefined;
}

/** Which of `pids` holds the server side of the connection from `clientPort` (none yet: undefined). */
export function connectionOwner(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const inode = serverSocketInode(serverPort, clientPort);
  if (!inode) return undefined;
  return pids.find((pid) => {
    try {
      return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}
