import { createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * A write racing the delete of what it refers to (a project created in a group being deleted, an
 * environment added to a project being deleted) fails its foreign key. That is the caller's 404 a
 * moment later, never a 500 (core/errors/driver-errors.ts). The race is made deterministic with a
 * trigger that deletes the referenced row just before the insert, in the writer's own transaction.
 */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const sql = (q: string) => t.orm.em.getConnection().execute(q);

async function deleteBeforeInsert(table: string, referenced: string, column: string): Promise<() => Promise<void>> {
  // Replaced, not just created: a run killed before its clean-up leaves them in the worker's database.
  await sql(`create or replace function test_race() returns trigger language plpgsql as $$
    begin delete from ${referenced} where id = new.${column}; return new; end $$`);
  await sql(`drop trigger if exists test_race on ${table}`);
  await sql(`create trigger test_race before insert on ${table} for each row execute function test_race()`);
  return async () => {
    await sql(`drop trigger test_race on ${table}`);
    await sql('drop function test_race()');
  };
}

describe('writes racing a delete', () => {
  it('REST: a project created in a group deleted meanwhile is 404 Namespace Not Found, nothing half-written', async () => {
    const g = await createGroup(t, { path: 'going' });
    const undo = await deleteBeforeInsert('projects', 'namespaces', 'namespace_id');
    try {
      const res = await admin().post('/api/v4/projects').send({ name: 'Late', namespace_id: g.id });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Namespace Not Found' });
    } finally {
      await undo();
    }
    expect(await sql("select id from projects where path = 'late'")).toEqual([]);
  });

  it('GraphQL: the same race is a NOT_FOUND error with that message, not INTERNAL_SERVER_ERROR', async () => {
    const g = await createGroup(t, { path: 'going' });
    const undo = await deleteBeforeInsert('projects', 'namespaces', 'namespace_id');
    try {
      const res = await admin().graphql(
        `mutation { projectCreate(input: { name: "Late", namespaceId: ${g.id} }) { project { id } errors } }`,
      );
      expect(res.body.data).toEqual({ projectCreate: null });
      expect(res.body.errors).toEqual([
        expect.objectContaining({
          message: '404 Namespace Not Found',
          extensions: expect.objectContaining({ code: 'NOT_FOUND' }),
        }),
      ]);
    } finally {
      await undo();
    }
  });

  it('REST: an environment added to a project deleted meanwhile is 404 Project Not Found', async () => {
    const owner = await createUser(t, { username: 'envowner' });
    const p = await createProject(t, { namespace: { id: owner.namespaceId }, path: 'envs' });
    const undo = await deleteBeforeInsert('environments', 'projects', 'project_id');
    try {
      const res = await admin().post(`/api/v4/projects/${p.id}/environments`).send({ name: 'staging' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
    } finally {
      await undo();
    }
  });
});

/**
 * A real deadlock between a service write and another session: the broadcast message insert takes
 * advisory lock A then B (a test trigger), the other session holds B and then asks for A. PostgreSQL
 * aborts the first waiter whose deadlock_timeout passes, the service's transaction here. Answered 409
 * with a retry hint, never a 500, and nothing of the write is left (core/errors/driver-errors.ts).
 */
async function lockAThenBOnInsert(table: string): Promise<() => Promise<void>> {
  await sql(`create or replace function test_deadlock() returns trigger language plpgsql as $$
    begin perform pg_advisory_xact_lock(424201); perform pg_advisory_xact_lock(424202); return new; end $$`);
  await sql(`drop trigger if exists test_deadlock on ${table}`);
  await sql(`create trigger test_deadlock before insert on ${table} for each row execute function test_deadlock()`);
  return async () => {
    await sql(`drop trigger test_deadlock on ${table}`);
    await sql('drop function test_deadlock()');
  };
}

async function waitForLockWaiter(objid: number): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const rows = await sql(`select 1 from pg_locks where locktype = 'advisory' and objid = ${objid} and not granted
      and database = (select oid from pg_database where datname = current_database())`);
    if (rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the service never waited for the lock');
}

const isDeadlock = (err: unknown) =>
  (err as { code?: string }).code === '40P01' || /deadlock detected/.test(String((err as Error).message));

/**
 * Runs `request` into a deadlock with another session; returns its response once the deadlock is
 * broken. PostgreSQL checks a wait once, deadlock_timeout (1 s) after it began: the service waits
 * first, so its check finds the cycle and aborts it. Should this session's wait be checked first (the
 * test stalled for a second before closing the cycle), this session is the one aborted and the
 * service's write goes through: `undo` removes it and the scenario runs again.
 */
async function deadlocked<T>(request: () => PromiseLike<T>, undo: () => Promise<void>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const other = await t.orm.em.getConnection().getKnex().transaction();
    let pending: Promise<T> | undefined;
    try {
      await other.raw('select pg_advisory_xact_lock(424202)');
      pending = Promise.resolve(request());
      await waitForLockWaiter(424202);
      try {
        await other.raw('select pg_advisory_xact_lock(424201)'); // closes the cycle
      } catch (err) {
        if (attempt >= 3 || !isDeadlock(err)) throw err;
        if (!other.isCompleted()) await other.rollback();
        await pending;
        await undo();
        continue;
      }
      await other.rollback();
      return await pending;
    } finally {
      if (!other.isCompleted()) await other.rollback().catch(() => undefined);
      pending?.catch(() => undefined); // awaited above on success; never an unhandled rejection
    }
  }
}

const removeDeadlocked = async () => {
  await sql("delete from broadcast_messages where message = 'Deadlocked'");
};

describe('writes in a deadlock', () => {
  it('REST: 409 with a retry hint and a JSON body, nothing written', async () => {
    const undo = await lockAThenBOnInsert('broadcast_messages');
    try {
      const res = await deadlocked(
        () => admin().post('/api/v4/broadcast_messages').send({ message: 'Deadlocked' }),
        removeDeadlocked,
      );
      expect(res.status).toBe(409);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.body).toEqual({ message: '409 Conflict: a concurrent request changed the same data; retry' });
    } finally {
      await undo();
    }
    expect(await sql("select id from broadcast_messages where message = 'Deadlocked'")).toEqual([]);
    const again = await admin().post('/api/v4/broadcast_messages').send({ message: 'Deadlocked' });
    expect(again.status).toBe(201);
  });

  it("GraphQL: the same message in the payload's errors (a conflict is the mutation's error, as GitLab's)", async () => {
    const undo = await lockAThenBOnInsert('broadcast_messages');
    try {
      const res = await deadlocked(
        () =>
          admin().graphql(
            'mutation { broadcastMessageCreate(input: { message: "Deadlocked" }) { broadcastMessage { id } errors } }',
          ),
        removeDeadlocked,
      );
      expect(res.body).toEqual({
        data: {
          broadcastMessageCreate: {
            broadcastMessage: null,
            errors: ['409 Conflict: a concurrent request changed the same data; retry'],
          },
        },
      });
    } finally {
      await undo();
    }
    expect(await sql("select id from broadcast_messages where message = 'Deadlocked'")).toEqual([]);
  });
});
