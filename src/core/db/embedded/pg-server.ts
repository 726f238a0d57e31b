import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { PgBinaries } from './pg-binaries';
import type { PgLauncher } from './pg-os-user';

export interface PgServerOptions {
  binaries: PgBinaries;
  launcher: PgLauncher;
  pgDir: string;
  port: number;
  flags: string[];
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
  /** Called once when PostgreSQL died and could not be restarted. */
  onFatal: (message: string) => void;
  /** Restart attempts after an unexpected exit (delays 0.25 s, 0.5 s, 1 s, ... capped at 4 s). */
  restartAttempts?: number;
}

const ENV = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };
const READY = 'database system is ready to accept connections';

/** Whether a process with this pid exists (signal 0). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The last lines PostgreSQL wrote that explain a failure (FATAL, PANIC, ERROR), else the last line. */
function reasonOf(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const bad = lines.filter((l) => /\b(FATAL|PANIC|ERROR):/.test(l) || /error/i.test(l));
  return (bad.length ? bad.slice(-2) : lines.slice(-1)).join(' / ') || 'no output';
}

/** Runs initdb as the launcher's user; rejects with initdb's own error text. */
export async function runInitdb(opts: PgServerOptions, superuser: string, password: string): Promise<void> {
  const { pgDir, launcher } = opts;
  fs.mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  const pwFile = path.join(path.dirname(pgDir), `.pg-password-${process.pid}`);
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (launcher.owner) {
    fs.chownSync(pgDir, launcher.owner.uid, launcher.owner.gid);
    fs.chownSync(pwFile, launcher.owner.uid, launcher.owner.gid);
  }
  try {
    const args = [
      `--pgdata=${pgDir}`,
      '--auth=scram-sha-256',
      `--username=${superuser}`,
      `--pwfile=${pwFile}`,
      '--encoding=UTF8',
      '--no-locale',
    ];
    const cmd = launcher.command(opts.binaries.initdb, args);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(cmd.file, cmd.args, {
        uid: cmd.uid,
        gid: cmd.gid,
        env: ENV,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.on('error', (e) => reject(new Error(`cannot run initdb: ${e.message}`)));
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed: ${reasonOf(out)}`))));
    });
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
}

/**
 * One supervised postmaster. start() resolves when it accepts connections. If it later exits without
 * stop() having been called, it is started again on the same data directory and port (crash recovery
 * replays the WAL, so committed writes survive); after the last failed attempt onFatal is called.
 */
export class PgServer {
  private child: ChildProcess | undefined;
  private stopping = false;
  private restarting = false;
  private failed = false;

  constructor(private readonly opts: PgServerOptions) {}

  get port(): number {
    return this.opts.port;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** false once PostgreSQL is gone for good (liveness answers 503). */
  get healthy(): boolean {
    return !this.failed;
  }

  async start(): Promise<void> {
    this.removeStalePidFile();
    const { launcher, binaries, pgDir, port, flags } = this.opts;
    const cmd = launcher.command(binaries.postgres, ['-D', pgDir, '-p', String(port), ...flags]);
    // Own process group: Ctrl-C or a group SIGTERM reaches only the service, which stops PostgreSQL
    // last (main.ts); otherwise the supervisor would see it exit and restart it during shutdown.
    const child = spawn(cmd.file, cmd.args, {
      uid: cmd.uid,
      gid: cmd.gid,
      env: ENV,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      let ready = false;
      child.stderr!.on('data', (c: Buffer) => {
        const text = c.toString();
        if (!ready) {
          out = (out + text).slice(-8000);
          if (out.includes(READY)) {
            ready = true;
            resolve();
          }
        } else if (/\b(FATAL|PANIC):/.test(text) && !this.stopping) {
          this.opts.log.warn(`postgres: ${text.trim().slice(0, 500)}`);
        }
      });
      child.on('error', (e) => reject(new Error(`cannot run postgres: ${e.message}`)));
      child.on('exit', (code, signal) => {
        if (!ready)
          reject(new Error(`postgres exited during start-up (${signal ?? `code ${code}`}): ${reasonOf(out)}`));
        else if (this.child === child && !this.stopping)
          void this.recover(`code ${code ?? '-'}, signal ${signal ?? '-'}`);
      });
    });
  }

  private removeStalePidFile(): void {
    const pidFile = path.join(this.opts.pgDir, 'postmaster.pid');
    try {
      const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (!pid || !isAlive(pid)) fs.rmSync(pidFile, { force: true });
    } catch {
      // no pid file
    }
  }

  /**
   * A postmaster left running on this data directory by a service process that was killed (SIGKILL
   * gives it no chance to stop PostgreSQL) is stopped before starting ours. Callers have already
   * checked that no live service process owns it (instance.json).
   */
  async stopOrphan(): Promise<void> {
    let pid: number;
    let dataDir: string;
    try {
      [pid, dataDir] = ((lines) => [Number(lines[0]), lines[1]] as const)(
        fs.readFileSync(path.join(this.opts.pgDir, 'postmaster.pid'), 'utf8').split('\n'),
      );
    } catch {
      return;
    }
    if (!pid || !isAlive(pid) || path.resolve(dataDir) !== path.resolve(this.opts.pgDir)) return;
    this.opts.log.warn(`stopping PostgreSQL pid ${pid} left running on ${this.opts.pgDir} by an earlier run`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 200 && isAlive(pid); i += 1) await new Promise((r) => setTimeout(r, 50));
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }

  private async recover(how: string): Promise<void> {
    if (this.restarting) return;
    this.restarting = true;
    const attempts = this.opts.restartAttempts ?? 6;
    this.opts.log.warn(`embedded PostgreSQL exited unexpectedly (${how}); restarting it on ${this.opts.pgDir}`);
    let last = '';
    for (let i = 0; i < attempts && !this.stopping; i += 1) {
      await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** i, 4000)));
      if (this.stopping) break;
      try {
        await this.start();
        this.opts.log.info(`embedded PostgreSQL restarted (attempt ${i + 1}), pid ${this.child?.pid}`);
        this.restarting = false;
        return;
      } catch (e) {
        last = (e as Error).message;
      }
    }
    this.restarting = false;
    if (this.stopping) return;
    this.failed = true;
    this.opts.onFatal(
      `embedded PostgreSQL died and could not be restarted after ${attempts} attempts (${last}); check ${this.opts.pgDir} and its log above, then restart the service`,
    );
  }

  /** Fast shutdown (SIGINT), SIGKILL after `timeoutMs`; resolves at once if it is not running. */
  async stop(timeoutMs = 10000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGINT');
      child.kill('SIGCONT'); // a stopped (SIGSTOP) server handles SIGINT only once continued
    });
  }
}
