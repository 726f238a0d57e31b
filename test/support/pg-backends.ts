import type { TestApp } from './test-app';

/**
 * A client's own PostgreSQL server processes, found by the application_name its connection string sets:
 * tests of the dedicated LISTEN connections (shared cache, notification hub) watch, freeze and end them.
 */
export function namedConnection(t: TestApp, name: string): string {
  const url = new URL(t.orm.config.getClientUrl());
  url.searchParams.set('application_name', name);
  return url.toString();
}

/** The server processes of connections named `name`, oldest first. */
export async function backendsNamed(t: TestApp, name: string): Promise<number[]> {
  const rows = (await t.orm.em
    .getConnection()
    .execute('select pid from pg_stat_activity where application_name = ? order by backend_start', [name])) as {
    pid: number;
  }[];
  return rows.map((r) => r.pid);
}

/**
 * Stops a server process (SIGSTOP): its socket stays open and nothing is answered or delivered, as on a
 * connection that died without a FIN. The returned `thaw` resumes and ends it.
 */
export function freezeBackend(t: TestApp, pid: number): () => Promise<void> {
  process.kill(pid, 'SIGSTOP');
  return async () => {
    process.kill(pid, 'SIGCONT');
    await t.orm.em.getConnection().execute('select pg_terminate_backend(?)', [pid]);
  };
}
