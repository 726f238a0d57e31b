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
  await sql(`create function test_race() returns trigger language plpgsql as $$
    begin delete from ${referenced} where id = new.${column}; return new; end $$`);
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
      const res = await admin().graphql(`mutation { createProject(input: { name: "Late", namespaceId: ${g.id} }) { id } }`);
      expect(res.body.data).toEqual({ createProject: null });
      expect(res.body.errors).toEqual([expect.objectContaining({ message: '404 Namespace Not Found', extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
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
