import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * How initdb and postgres are launched. PostgreSQL refuses to run as root, so as root they run as the
 * OS user `postgres` (created when missing). That user usually cannot traverse a private checkout
 * (/root is 0700, so is `mktemp -d`), so it is started through util-linux `setpriv` with one ambient
 * capability, CAP_DAC_READ_SEARCH: it may look up and read paths under private parents (binaries in
 * node_modules, DATA_DIR), and writes only where it owns files (DATA_DIR/postgres). docs/operations.md#where-the-embedded-postgresql-runs.
 * Measured alternative: copying the binaries to a traversable cache fixes node_modules but not a
 * DATA_DIR under a private parent, which would have to move out of DATA_DIR.
 */
export interface PgLauncher {
  /** uid/gid that must own the data directory; undefined when not running as root. */
  owner?: { uid: number; gid: number };
  command(file: string, args: string[]): { file: string; args: string[]; uid?: number; gid?: number };
  describe: string;
}

const CAP_DAC_READ_SEARCH = 2;

function idOf(flag: '-u' | '-g', name: string): number | undefined {
  try {
    return Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    return undefined;
  }
}

function ensurePostgresUser(): { uid: number; gid: number } {
  if (idOf('-u', 'postgres') === undefined) {
    try {
      if (idOf('-g', 'postgres') === undefined) execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
      execFileSync(
        'useradd',
        ['--system', '-g', 'postgres', '--no-create-home', '-s', '/usr/sbin/nologin', 'postgres'],
        { stdio: 'ignore' },
      );
    } catch (e) {
      throw new Error(
        `running as root, the embedded PostgreSQL needs an OS user "postgres" and creating it failed (${(e as Error).message}); create it, run as a normal user, or set DATABASE_URL`,
      );
    }
  }
  return { uid: idOf('-u', 'postgres')!, gid: idOf('-g', 'postgres')! };
}

function hasBoundingCap(cap: number): boolean {
  try {
    const line = fs
      .readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('CapBnd:'));
    return line !== undefined && (BigInt(`0x${line.split(/\s+/)[1]}`) & (1n << BigInt(cap))) !== 0n;
  } catch {
    return false;
  }
}

function findSetpriv(): string | undefined {
  return ['/usr/bin/setpriv', '/bin/setpriv', '/usr/sbin/setpriv'].find((p) => fs.existsSync(p));
}

export function pgLauncher(): PgLauncher {
  if (process.getuid?.() !== 0) return { command: (file, args) => ({ file, args }), describe: 'as the current user' };
  const owner = ensurePostgresUser();
  const setpriv = findSetpriv();
  if (setpriv && hasBoundingCap(CAP_DAC_READ_SEARCH)) {
    // no_setuid_fixup: access(2) checks with the real uid, and without this bit the kernel drops the
    // capability for them; initdb and postgres validate their own binaries with access(2).
    const prefix = [
      '--reuid=postgres',
      '--regid=postgres',
      '--init-groups',
      '--securebits=+no_setuid_fixup',
      '--inh-caps=+dac_read_search',
      '--ambient-caps=+dac_read_search',
    ];
    return {
      owner,
      command: (file, args) => ({ file: setpriv, args: [...prefix, file, ...args] }),
      describe: 'as OS user postgres (setpriv, CAP_DAC_READ_SEARCH)',
    };
  }
  // Without setpriv or the capability: plain uid switch; works when every parent directory is traversable.
  return {
    owner,
    command: (file, args) => ({ file, args, ...owner }),
    describe: 'as OS user postgres (no setpriv: parents of DATA_DIR must be traversable)',
  };
}
