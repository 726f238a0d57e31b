import type { TestApp } from './test-app';

/** A system hook that is never delivered to (TEST-NET-1): its outbox rows show which events a write emitted. */
export async function captureSystemEvents(
  app: TestApp,
): Promise<() => Promise<{ event_name: string; payload: Record<string, unknown> }[]>> {
  await app.orm.em
    .getConnection()
    .execute(
      `insert into system_hooks (url, last_txid) values ('http://192.0.2.1/hook', pg_snapshot_xmin(pg_current_snapshot()))`,
    );
  await app.settled();
  return async () =>
    (await app.orm.em.getConnection().execute('select event_name, payload from system_hook_events order by id')) as {
      event_name: string;
      payload: Record<string, unknown>;
    }[];
}
