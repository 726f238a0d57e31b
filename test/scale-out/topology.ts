import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/core/db/embedded/embedded-postgres';
import { waitFor } from '../reliability/fault-support';
import { DIST, spawnNode, type LogLine, type RunningProcess } from '../reliability/service-process';

/**
 * Real deployment pieces for the scale-out suite (docs/scale-out.md): service
 * instances as `npm start` runs them, HAProxy in front (Debian package `haproxy`), PgBouncer between
 * them and PostgreSQL (Debian package `pgbouncer`). `.ci/run` installs both; elsewhere the suite is
 * skipped with a line saying so unless REQUIRE_SCALEOUT=1.
 */
export const MAIN = path.join(DIST, 'main.js');
export const SECRETS_KEY = 'a'.repeat(64);
export const TOKEN = 'scale-out-test-root-token-012345';

export function which(cmd: string): string | undefined {
  for (const dir of ['/usr/sbin', '/usr/bin', '/sbin', '/bin', ...(process.env.PATH ?? '').split(':')]) {
    const p = path.join(dir, cmd);
    if (fs.existsSync(p)) return p;
  }
  return undefined;
}

/** `describe`, or `describe.skip` with one line when a tool is missing (CI makes it mandatory). */
export function describeWith(tools: string[], name: string, fn: () => void): void {
  const missing = tools.filter((t) => !which(t));
  if (missing.length > 0 && process.env.REQUIRE_SCALEOUT !== '1') {
    process.stdout.write(`SKIPPED: ${name} (needs ${missing.join(', ')}: apt-get install ${missing.join(' ')})\n`);
    describe.skip(name, fn);
  } else {
    describe(name, fn);
  }
}

export interface Instance {
  name: string;
  port: number;
  /** MONITORING_PORT, when started with `monitoring` (the balancer checks readiness there). */
  monitoringPort?: number;
  env: Record<string, string>;
  proc: RunningProcess;
  /** Starts the process again with the same settings (after it stopped). */
  restart(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops it if running and removes its DATA_DIR. */
  dispose(): Promise<void>;
}

const listeningLine = (port: number, workers: number) => (l: LogLine) =>
  l.msg ===
  (workers === 0
    ? `listening on http://127.0.0.1:${port}`
    : `listening on http://127.0.0.1:${port} with ${workers} worker${workers === 1 ? '' : 's'}`);

/**
 * One service instance (`node dist/main.js`, the npm start flags) on `databaseUrl`, listening when
 * resolved; `nodeArgs` go before the script (a test preload); `monitoring`: with a MONITORING_PORT;
 * `main`: another build's entry (the previous release, test/upgrade).
 */
export async function startInstance(
  name: string,
  env: Record<string, string>,
  opts: { nodeArgs?: string[]; monitoring?: boolean; main?: string } = {},
): Promise<Instance> {
  const nodeArgs = opts.nodeArgs ?? [];
  const main = opts.main ?? MAIN;
  const port = await freePort();
  const monitoringPort = opts.monitoring ? await freePort() : undefined;
  const workers = Number(env.WORKERS ?? '0');
  const full = {
    PORT: String(port),
    WORKERS: String(workers),
    INITIAL_ROOT_TOKEN: TOKEN,
    SECRETS_KEY,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `so-${name}-`)),
    ...(monitoringPort ? { MONITORING_PORT: String(monitoringPort) } : {}),
    ...env,
  };
  const inst: Instance = {
    name,
    port,
    monitoringPort,
    env: full,
    proc: spawnNode(main, full, nodeArgs),
    async restart() {
      inst.proc = spawnNode(main, full, nodeArgs);
      await inst.proc.line(`${name} listening again`, listeningLine(port, workers), 60_000);
    },
    async stop(signal = 'SIGTERM') {
      inst.proc.child.kill(signal);
      return inst.proc.exited;
    },
    async dispose() {
      if (inst.proc.child.exitCode === null && inst.proc.child.signalCode === null) await inst.stop();
      fs.rmSync(full.DATA_DIR, { recursive: true, force: true });
    },
  };
  await inst.proc.line(`${name} listening`, listeningLine(port, workers), 60_000);
  return inst;
}

export interface Proxy {
  port: number;
  stop(): Promise<void>;
  /** The servers HAProxy counts as up right now (its stats socket). */
  upServers(): Promise<string[]>;
}

function spawnLogged(
  cmd: string,
  args: string[],
  opts: { uid?: number; gid?: number } = {},
): { child: ChildProcess; output: () => string } {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return { child, output: () => out };
}

/** The HAProxy example of docs/scale-out.md#rolling-restarts-and-haproxy: the file operators copy. */
export const HAPROXY_EXAMPLE = path.join(__dirname, '../../deploy/haproxy.cfg');

export interface Backend {
  name: string;
  port: number;
  /** Where its health check goes (the example's `check port`). */
  monitoringPort?: number;
}

/**
 * deploy/haproxy.cfg as it is, with the test's addresses: the frontend binds 127.0.0.1:`port`, and the
 * example's server lines are replaced by one per backend with the example's options (its monitoring
 * port in `check port`), plus a stats socket (the test reads which servers are up).
 */
export function haproxyConfig(port: number, servers: Backend[], statsSocket: string): string {
  const lines = fs.readFileSync(HAPROXY_EXAMPLE, 'utf8').split('\n');
  const isServer = (l: string) => /^\s+server \S+ \S+:\d+/.test(l);
  const options = lines.find(isServer)!.replace(/^\s+server \S+ \S+:\d+/, '');
  const out: string[] = [];
  for (const line of lines) {
    if (isServer(line)) {
      if (!out.some(isServer))
        out.push(
          ...servers.map((s) => {
            const check = s.monitoringPort ? options.replace(/ port \d+/, ` port ${s.monitoringPort}`) : options;
            return `  server ${s.name} 127.0.0.1:${s.port}${check}`;
          }),
        );
    } else if (/^\s+bind :\d+$/.test(line)) out.push(`  bind 127.0.0.1:${port}`);
    else out.push(line);
    if (line === 'global') out.push(`  stats socket ${statsSocket} mode 600 level admin`);
  }
  return out.join('\n');
}

export async function startHaproxy(servers: Backend[]): Promise<Proxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'so-haproxy-'));
  const port = await freePort();
  const socket = path.join(dir, 'stats.sock');
  const cfg = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(cfg, haproxyConfig(port, servers, socket));
  const proc = spawnLogged(which('haproxy')!, ['-db', '-f', cfg]);
  const upServers = async (): Promise<string[]> => {
    if (!fs.existsSync(socket)) return [];
    const csv = await new Promise<string>((resolve) => {
      let text = '';
      const c = net.connect(socket, () => c.end('show stat\n'));
      c.on('data', (d: Buffer) => (text += d.toString('utf8')));
      c.on('close', () => resolve(text));
      c.on('error', () => resolve(''));
    });
    // CSV: pxname, svname, …, status is the 18th column.
    return csv
      .split('\n')
      .filter((l) => l.startsWith('gitlab,') && !l.startsWith('gitlab,BACKEND'))
      .filter((l) => l.split(',')[17] === 'UP')
      .map((l) => l.split(',')[1]);
  };
  await waitFor(
    'haproxy sees every server up',
    async () => proc.child.exitCode === null && (await upServers()).length === servers.length,
    20_000,
  ).catch((e: Error) => {
    throw new Error(`${e.message}\n${proc.output()}`);
  });
  return {
    port,
    upServers,
    async stop() {
      proc.child.kill('SIGTERM');
      await new Promise((r) => (proc.child.exitCode !== null ? r(null) : proc.child.once('exit', r)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * PgBouncer in transaction pooling mode in front of `databaseUrl`'s server and database. It refuses to
 * run as root, so as root it runs as the OS user `postgres` (the embedded PostgreSQL's user).
 * `statement_timeout` is a startup parameter the service sends; PgBouncer cannot forward it and is
 * told to ignore it (docs/scale-out.md#pgbouncer: set it on the role instead).
 */
export async function startPgbouncer(
  databaseUrl: string,
): Promise<{ url: string; stop(): Promise<void>; output(): string }> {
  const u = new URL(databaseUrl);
  const db = u.pathname.slice(1);
  const user = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'so-pgbouncer-'));
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'users.txt'), `"${user}" "${password}"\n`);
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    `[databases]
${db} = host=${u.hostname} port=${u.port || 5432} dbname=${db}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = plain
auth_file = ${dir}/users.txt
pool_mode = transaction
max_client_conn = 500
default_pool_size = 20
ignore_startup_parameters = extra_float_digits,statement_timeout,options
`,
  );
  let ids: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    for (const f of fs.readdirSync(dir)) fs.chownSync(path.join(dir, f), uid, gid);
    fs.chownSync(dir, uid, gid);
    ids = { uid, gid };
  }
  const proc = spawnLogged(which('pgbouncer')!, [path.join(dir, 'pgbouncer.ini')], ids);
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  await waitFor(
    'pgbouncer listens',
    () => proc.child.exitCode === null && /listening on 127.0.0.1:\d+/.test(proc.output()),
    10_000,
  ).catch((e: Error) => {
    throw new Error(`${e.message}\n${proc.output()}`);
  });
  return {
    url: url.toString(),
    output: proc.output,
    async stop() {
      proc.child.kill('SIGTERM');
      await new Promise((r) => (proc.child.exitCode !== null ? r(null) : proc.child.once('exit', r)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A keep-alive HTTP client as scripts use one (python-gitlab's requests.Session). */
export function client(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const call = (
    method: string,
    urlPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the JSON of any route
  ): Promise<{ status: number; body: any; error?: string }> =>
    new Promise((resolve) => {
      const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: urlPath,
          agent,
          timeout: 15_000,
          headers: {
            'PRIVATE-TOKEN': TOKEN,
            ...headers,
            ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString('utf8')));
          res.on('end', () => {
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // keep the text
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on('error', (e) => resolve({ status: 0, body: null, error: e.message }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => resolve({ status: 0, body: null, error: e.message }));
      if (data) req.write(data);
      req.end();
    });
  return { call, close: () => agent.destroy() };
}
