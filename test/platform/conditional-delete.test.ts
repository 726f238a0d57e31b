import { createGroup, createProject, createUser } from '../support/factories';
import { SSH_KEYS } from '../support/ssh-keys';
import { ALICE } from '../support/gpg-keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * GitLab's conditional DELETE (`destroy_conditionally!`; gitlab-behaviour.md "Errors"): a DELETE whose
 * If-Unmodified-Since is older than the resource's last change answers 412 and deletes nothing; a later
 * date, or a header that is not a date, lets it through. And concurrent deletes of one resource: one
 * success, the others 404, one audit event (core/db/delete-claim.ts).
 */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const PAST = 'Mon, 01 Jan 2001 00:00:00 GMT';
const future = () => new Date(Date.now() + 3_600_000).toUTCString();
const sql = (q: string, params: unknown[] = []) =>
  t.orm.em.getConnection().execute(q, params) as Promise<Record<string, unknown>[]>;

interface Case {
  name: string;
  /** Creates the resource; returns the DELETE path and a check that it still exists. */
  make(): Promise<{ path: string; exists: () => Promise<boolean>; body?: Record<string, unknown> }>;
  status?: number;
}

const rowExists = (table: string, where: string, params: unknown[]) => async () =>
  (await sql(`select 1 from ${table} where ${where}`, params)).length > 0;

async function registeredRunner(): Promise<number> {
  const token = (await admin().get('/api/v4/application/settings').expect(200)).body.runners_registration_token;
  return (await admin().post('/api/v4/runners').send({ token, description: 'r' }).expect(201)).body.id;
}

const CASES: Case[] = [
  {
    name: 'DELETE /broadcast_messages/:id',
    make: async () => {
      const id = (await admin().post('/api/v4/broadcast_messages').send({ message: 'hi' }).expect(201)).body.id;
      return { path: `/api/v4/broadcast_messages/${id}`, exists: rowExists('broadcast_messages', 'id = ?', [id]) };
    },
  },
  {
    name: 'DELETE /runners/:id',
    make: async () => {
      const id = await registeredRunner();
      return { path: `/api/v4/runners/${id}`, exists: rowExists('ci_runners', 'id = ?', [id]) };
    },
  },
  {
    name: 'DELETE /projects/:id/runners/:runner_id',
    make: async () => {
      const owner = await createUser(t);
      const [a, b] = [
        await createProject(t, { namespace: { id: owner.namespaceId } }),
        await createProject(t, { namespace: { id: owner.namespaceId } }),
      ];
      const token = (await admin().get(`/api/v4/projects/${a.id}`).expect(200)).body.runners_token;
      const runner = (await admin().post('/api/v4/runners').send({ token, description: 'specific' }).expect(201)).body
        .id;
      await admin().post(`/api/v4/projects/${b.id}/runners`).send({ runner_id: runner }).expect(201);
      return {
        path: `/api/v4/projects/${b.id}/runners/${runner}`,
        exists: rowExists('ci_runner_projects', 'runner_id = ? and project_id = ?', [runner, b.id]),
      };
    },
  },
  {
    name: 'DELETE /projects/:id/environments/:environment_id',
    make: async () => {
      const owner = await createUser(t);
      const p = await createProject(t, { namespace: { id: owner.namespaceId } });
      const id = (await admin().post(`/api/v4/projects/${p.id}/environments`).send({ name: 'review' }).expect(201)).body
        .id;
      return { path: `/api/v4/projects/${p.id}/environments/${id}`, exists: rowExists('environments', 'id = ?', [id]) };
    },
  },
  {
    name: 'DELETE /groups/:id',
    make: async () => {
      const g = await createGroup(t);
      return { path: `/api/v4/groups/${g.id}`, exists: rowExists('namespaces', 'id = ?', [g.id]) };
    },
  },
  {
    name: 'DELETE /projects/:id/pages/domains/:domain',
    make: async () => {
      const owner = await createUser(t);
      const p = await createProject(t, { namespace: { id: owner.namespaceId } });
      await admin()
        .post(`/api/v4/projects/${p.id}/pages/domains`)
        .send({ domain: `d${p.id}.conditional.test` })
        .expect(201);
      return {
        path: `/api/v4/projects/${p.id}/pages/domains/d${p.id}.conditional.test`,
        exists: rowExists('pages_domains', 'project_id = ?', [p.id]),
      };
    },
  },
  {
    name: 'DELETE /groups/:id/members/:user_id',
    make: async () => {
      const [g, u] = [await createGroup(t), await createUser(t)];
      await admin().post(`/api/v4/groups/${g.id}/members`).send({ user_id: u.id, access_level: 30 }).expect(201);
      return {
        path: `/api/v4/groups/${g.id}/members/${u.id}`,
        exists: rowExists('group_members', 'group_id = ? and user_id = ?', [g.id, u.id]),
      };
    },
  },
  {
    name: 'DELETE /users/:id/keys/:key_id',
    make: async () => {
      const u = await createUser(t);
      const id = (
        await admin().post(`/api/v4/users/${u.id}/keys`).send({ title: 'k', key: SSH_KEYS.ed25519.key }).expect(201)
      ).body.id;
      return { path: `/api/v4/users/${u.id}/keys/${id}`, exists: rowExists('keys', 'id = ?', [id]) };
    },
  },
  {
    name: 'DELETE /users/:id/gpg_keys/:key_id',
    make: async () => {
      const u = await createUser(t);
      const id = (await admin().post(`/api/v4/users/${u.id}/gpg_keys`).send({ key: ALICE.key }).expect(201)).body.id;
      return { path: `/api/v4/users/${u.id}/gpg_keys/${id}`, exists: rowExists('gpg_keys', 'id = ?', [id]) };
    },
  },
  {
    name: 'DELETE /users/:user_id/impersonation_tokens/:id',
    make: async () => {
      const u = await createUser(t);
      const id = (
        await admin()
          .post(`/api/v4/users/${u.id}/impersonation_tokens`)
          .send({ name: 'x', scopes: ['api'] })
          .expect(201)
      ).body.id;
      return {
        path: `/api/v4/users/${u.id}/impersonation_tokens/${id}`,
        exists: rowExists('personal_access_tokens', 'id = ? and not revoked', [id]),
      };
    },
  },
  {
    name: 'DELETE /projects/:id',
    status: 202,
    make: async () => {
      const owner = await createUser(t);
      const p = await createProject(t, { namespace: { id: owner.namespaceId } });
      return { path: `/api/v4/projects/${p.id}`, exists: rowExists('projects', 'id = ?', [p.id]) };
    },
  },
  {
    name: 'DELETE /projects/:id/share/:group_id',
    make: async () => {
      const owner = await createUser(t);
      const [p, g] = [await createProject(t, { namespace: { id: owner.namespaceId } }), await createGroup(t)];
      await admin().post(`/api/v4/projects/${p.id}/share`).send({ group_id: g.id, group_access: 30 }).expect(201);
      return {
        path: `/api/v4/projects/${p.id}/share/${g.id}`,
        exists: rowExists('project_group_links', 'project_id = ? and group_id = ?', [p.id, g.id]),
      };
    },
  },
  {
    name: 'DELETE /projects/:id/fork',
    make: async () => {
      const owner = await createUser(t);
      const src = await createProject(t, { namespace: { id: owner.namespaceId }, visibility: 'public' });
      const forked = await admin()
        .post(`/api/v4/projects/${src.id}/fork`)
        .send({ namespace: String((await createGroup(t, { visibility: 'public' })).id) });
      if (forked.status !== 201) throw new Error(JSON.stringify(forked.body));
      const fork = forked.body.id;
      return {
        path: `/api/v4/projects/${fork}/fork`,
        exists: rowExists('projects', 'id = ? and forked_from_project_id is not null', [fork]),
      };
    },
  },
  {
    name: 'DELETE /groups/:id/access_requests/:user_id',
    make: async () => {
      const [g, asker] = [await createGroup(t, { visibility: 'public' }), await createUser(t)];
      await admin().put(`/api/v4/groups/${g.id}`).send({ request_access_enabled: true }).expect(200);
      await api(t, asker.token).post(`/api/v4/groups/${g.id}/access_requests`).expect(201);
      return {
        path: `/api/v4/groups/${g.id}/access_requests/${asker.id}`,
        exists: rowExists('access_requests', 'source_id = ? and user_id = ?', [g.id, asker.id]),
      };
    },
  },
  {
    name: "DELETE /runners (unregister, by the runner's token)",
    make: async () => {
      const token = (await admin().get('/api/v4/application/settings').expect(200)).body.runners_registration_token;
      const runner = (await admin().post('/api/v4/runners').send({ token, description: 'r' }).expect(201)).body;
      return {
        path: '/api/v4/runners',
        body: { token: runner.token },
        exists: rowExists('ci_runners', 'id = ?', [runner.id]),
      };
    },
  },
  {
    name: 'DELETE /users/:id',
    make: async () => {
      const u = await createUser(t);
      return { path: `/api/v4/users/${u.id}`, exists: rowExists('users', 'id = ?', [u.id]) };
    },
  },
  {
    name: 'DELETE /users/:id/emails/:email_id',
    make: async () => {
      const u = await createUser(t);
      const id = (
        await admin()
          .post(`/api/v4/users/${u.id}/emails`)
          .send({ email: `second${u.id}@conditional.test` })
          .expect(201)
      ).body.id;
      return { path: `/api/v4/users/${u.id}/emails/${id}`, exists: rowExists('emails', 'id = ?', [id]) };
    },
  },
  {
    name: 'DELETE /hooks/:id',
    make: async () => {
      await admin()
        .put('/api/v4/application/settings')
        .send({ allow_local_requests_from_system_hooks: true })
        .expect(200);
      const id = (await admin().post('/api/v4/hooks').send({ url: 'http://127.0.0.1:9/in' }).expect(201)).body.id;
      return { path: `/api/v4/hooks/${id}`, exists: rowExists('system_hooks', 'id = ?', [id]) };
    },
  },
];

describe('DELETE with If-Unmodified-Since', () => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s: 412 for a date before the last change (nothing deleted); a later date or a non-date goes through',
    async (_name, c) => {
      const stale = await c.make();
      const refused = await admin()
        .delete(stale.path)
        .set('If-Unmodified-Since', PAST)
        .send(stale.body ?? {});
      expect(refused.status).toBe(412);
      expect(refused.body).toEqual({ message: '412 Precondition Failed' });
      expect(await stale.exists()).toBe(true);
      const fresh = await admin()
        .delete(stale.path)
        .set('If-Unmodified-Since', future())
        .send(stale.body ?? {});
      expect(fresh.status).toBe(c.status ?? 204);
      expect(await stale.exists()).toBe(false);
      const other = await c.make();
      await admin()
        .delete(other.path)
        .set('If-Unmodified-Since', 'yesterday-ish')
        .send(other.body ?? {})
        .expect(c.status ?? 204);
      expect(await other.exists()).toBe(false);
    },
  );
});

describe('concurrent deletes of one resource', () => {
  // Events of this test only (ids restart per test; audit events are kept across the file's tests).
  let since = 0;
  beforeEach(async () => {
    since = Number((await sql('select coalesce(max(id), 0) as n from audit_events'))[0].n);
  });
  const events = async () => sql('select details from audit_events where id > ?', [since]);
  const auditCount = async (action: string, targetId: number) =>
    (await events()).filter((r) => {
      const d = r.details as Record<string, unknown>;
      return d.remove === action && d.target_id === targetId;
    }).length;

  it('six DELETE /broadcast_messages/:id at once: one 204, five 404, one audit event', async () => {
    const id = (await admin().post('/api/v4/broadcast_messages').send({ message: 'once' }).expect(201)).body.id;
    const statuses = (
      await Promise.all(Array.from({ length: 6 }, () => admin().delete(`/api/v4/broadcast_messages/${id}`)))
    )
      .map((r) => r.status)
      .sort();
    expect(statuses).toEqual([204, 404, 404, 404, 404, 404]);
    expect(await auditCount('broadcast_message', id)).toBe(1);
  });

  it('six DELETE /groups/:id at once: one 204, five 404, one audit event', async () => {
    const g = await createGroup(t);
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => admin().delete(`/api/v4/groups/${g.id}`))))
      .map((r) => r.status)
      .sort();
    expect(statuses).toEqual([204, 404, 404, 404, 404, 404]);
    expect(await auditCount('group', g.id)).toBe(1);
  });

  it('a member removed while the group is deleted, a user deleted while creating a project: never a 5xx (lock order; ten rounds each)', async () => {
    for (let round = 0; round < 10; round += 1) {
      const [g, u] = [await createGroup(t), await createUser(t)];
      await admin().post(`/api/v4/groups/${g.id}/members`).send({ user_id: u.id, access_level: 30 }).expect(201);
      const [a, b] = await Promise.all([
        admin().delete(`/api/v4/groups/${g.id}/members/${u.id}`),
        admin().delete(`/api/v4/groups/${g.id}`),
      ]);
      expect([a.status, b.status].filter((x) => x >= 500)).toEqual([]);
      const leaving = await createUser(t);
      const [c, d] = await Promise.all([
        api(t, leaving.token)
          .post('/api/v4/projects')
          .send({ name: `p${round}` }),
        admin().delete(`/api/v4/users/${leaving.id}`),
      ]);
      expect([c.status, d.status].filter((x) => x >= 500)).toEqual([]);
    }
  });

  it('three stops of one environment at once: all 200 stopped, one state-change audit event', async () => {
    const owner = await createUser(t);
    const p = await createProject(t, { namespace: { id: owner.namespaceId } });
    const id = (await admin().post(`/api/v4/projects/${p.id}/environments`).send({ name: 'prod' }).expect(201)).body.id;
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => admin().post(`/api/v4/projects/${p.id}/environments/${id}/stop`)),
    );
    expect(answers.map((r) => [r.status, r.body.state])).toEqual([
      [200, 'stopped'],
      [200, 'stopped'],
      [200, 'stopped'],
    ]);
    const changes = (await events()).filter(
      (r) =>
        (r.details as Record<string, unknown>).change === 'state' &&
        (r.details as Record<string, unknown>).target_id === id,
    );
    expect(changes).toHaveLength(1);
  });
});
