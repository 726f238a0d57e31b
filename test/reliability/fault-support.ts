import fs from 'node:fs';

/** Pids whose parent is `pid` (PostgreSQL backends and auxiliary processes of one postmaster). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** Sends `signal` to the postmaster and every process it started. */
export function signalCluster(pid: number, signal: NodeJS.Signals): void {
  for (const p of [pid, ...childrenOf(pid)]) {
    try {
      process.kill(p, signal);
    } catch {
      // already gone
    }
  }
}

/** Polls `check` every 50 ms until it is true; throws after `limitMs` (a guard, not an assertion on time). */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, limitMs = 30000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`gave up waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
