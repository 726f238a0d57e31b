import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DIST, ROOT } from '../reliability/service-process';

/** The operations commands as `npm run <name>` runs them: built dist/cli, this test's environment. */
export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * `npm run <script> -- args` as `node dist/cli/<script, : as ->.js args` with `env` (DATABASE_URL and SECRETS_KEY cleared unless given),
 * asynchronously: the test's own writers keep running meanwhile.
 */
export function runCli(script: string, args: string[], env: Record<string, string>): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(DIST, 'cli', `${script.replace(':', '-')}.js`), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', SECRETS_KEY: '', SECRETS_KEY_PREVIOUS: '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** `table: n` lines of a command's report. */
export const tableCounts = (stdout: string): Record<string, number> =>
  Object.fromEntries([...stdout.matchAll(/^([a-z_0-9]+): (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));

/** The decompressed lines of a backup file. */
export const backupLines = (file: string): string[] =>
  zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n').filter(Boolean);

/** Writes `lines` as a backup file (gzip). */
export const writeBackupLines = (file: string, lines: string[]): void =>
  fs.writeFileSync(file, zlib.gzipSync(`${lines.join('\n')}\n`));
