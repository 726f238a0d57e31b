import { createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** Audit events of users (entity User), their identities and impersonation tokens, and Sudo use. */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

beforeEach(async () => {
  await t.orm.em.getConnection().execute('delete from audit_events');
});

type Event = { id: number; author_id: number; entity_id: number; entity_type: string; details: Record<string, string> };
const userEvents = async (id: number) =>
  (await admin().get(`/api/v4/audit_events?entity_type=User&entity_id=${id}`).expect(200)).body as Event[];
/** What each event says, oldest first: [add/remove/change/custom_message, from, to, target_type, target_details]. */
const said = (list: Event[]) =>
  [...list]
    .reverse()
    .map((e) => [
      e.details.add ?? e.details.remove ?? e.details.change ?? e.details.custom_message,
      e.details.from,
      e.details.to,
      e.details.target_type,
      e.details.target_details,
    ]);

describe('user audit events', () => {
  it('records creation, each changed attribute (the password filtered), block, unblock and removal, on the user', async () => {
    const u = (
      await admin()
        .post('/api/v4/users')
        .send({ email: 'au@example.com', name: 'Audit User', username: 'audited', password: 'secret123' })
        .expect(201)
    ).body;
    await admin()
      .put(`/api/v4/users/${u.id}`)
      .send({
        admin: true,
        external: true,
        can_create_group: false,
        projects_limit: 5,
        password: 'another-secret',
        bio: 'not audited',
      })
      .expect(200);
    await admin().put(`/api/v4/users/${u.id}`).send({ admin: true }).expect(200); // no change, no event
    await admin().post(`/api/v4/users/${u.id}/block`).expect(201);
    await admin().post(`/api/v4/users/${u.id}/block`).expect(201); // already blocked: false, no event
    await admin().post(`/api/v4/users/${u.id}/unblock`).expect(201);
    await admin().put(`/api/v4/users/${u.id}`).send({ email: 'admin@example.com' }).expect(409); // refused: no event
    const list = await userEvents(u.id);
    expect(said(list)).toEqual([
      ['user', undefined, undefined, 'User', 'audited'],
      ['admin', 'false', 'true', 'User', 'audited'],
      ['external', 'false', 'true', 'User', 'audited'],
      ['can_create_group', 'true', 'false', 'User', 'audited'],
      ['projects_limit', '100000', '5', 'User', 'audited'],
      ['password', '[FILTERED]', '[FILTERED]', 'User', 'audited'],
      ['Blocked user', undefined, undefined, 'User', 'audited'],
      ['Unblocked user', undefined, undefined, 'User', 'audited'],
    ]);
    expect(
      list.every(
        (e) =>
          e.entity_type === 'User' &&
          e.entity_id === u.id &&
          e.author_id === 1 &&
          e.details.entity_path === 'audited' &&
          e.details.target_id === String(u.id),
      ),
    ).toBe(true);
    expect(list[0].details).toEqual({
      custom_message: 'Unblocked user',
      author_name: 'Administrator',
      target_id: String(u.id),
      target_type: 'User',
      target_details: 'audited',
      ip_address: expect.stringMatching(/127\.0\.0\.1/),
      entity_path: 'audited',
    });
    expect(JSON.stringify(list)).not.toContain('scrypt');
    expect(JSON.stringify(list)).not.toContain('another-secret');
    await admin().delete(`/api/v4/users/${u.id}`).expect(204);
    expect(said((await userEvents(u.id)).slice(0, 1))).toEqual([['user', undefined, undefined, 'User', 'audited']]);
    expect((await userEvents(u.id))[0].details.remove).toBe('user');
  });

  it('records identities added and changed, with the provider as target', async () => {
    const u = (
      await admin()
        .post('/api/v4/users')
        .send({
          email: 'id@example.com',
          name: 'Id',
          username: 'ided',
          password: 'secret123',
          provider: 'ldapmain',
          extern_uid: 'one',
        })
        .expect(201)
    ).body;
    await admin().put(`/api/v4/users/${u.id}`).send({ provider: 'ldapmain', extern_uid: 'two' }).expect(200);
    await admin().put(`/api/v4/users/${u.id}`).send({ provider: 'ldapmain', extern_uid: 'two' }).expect(200); // unchanged
    expect(said(await userEvents(u.id))).toEqual([
      ['user', undefined, undefined, 'User', 'ided'],
      ['identity', undefined, undefined, 'Identity', 'ldapmain'],
      ['extern_uid', 'one', 'two', 'Identity', 'ldapmain'],
    ]);
  });

  it('records impersonation tokens created and revoked, never their value', async () => {
    const u = await createUser(t, { username: 'imp' });
    const token = (
      await admin()
        .post(`/api/v4/users/${u.id}/impersonation_tokens`)
        .send({ name: 'ci-bot', scopes: ['api'] })
        .expect(201)
    ).body;
    await admin().delete(`/api/v4/users/${u.id}/impersonation_tokens/${token.id}`).expect(204);
    await admin().delete(`/api/v4/users/${u.id}/impersonation_tokens/${token.id}`).expect(204); // already revoked: no event
    await admin()
      .post(`/api/v4/users/${u.id}/impersonation_tokens`)
      .send({ name: 'bad', scopes: ['nope'] })
      .expect(400);
    const list = await userEvents(u.id);
    expect(said(list)).toEqual([
      ['impersonation_token', undefined, undefined, 'PersonalAccessToken', 'ci-bot'],
      ['impersonation_token', undefined, undefined, 'PersonalAccessToken', 'ci-bot'],
    ]);
    expect([list[1].details.add, list[0].details.remove, list[0].details.target_id]).toEqual([
      'impersonation_token',
      'impersonation_token',
      String(token.id),
    ]);
    expect(JSON.stringify(list)).not.toContain(token.token);
  });

  it('under Sudo, records the user acted as as the author and the administrator as impersonated_by', async () => {
    const admin2 = await createUser(t, { username: 'second-admin', admin: true, name: 'Second Admin' });
    const u = await createUser(t, { username: 'target' });
    await admin().post(`/api/v4/users/${u.id}/block`).set('Sudo', 'second-admin').expect(201);
    await admin().put(`/api/v4/users/${u.id}`).send({ projects_limit: 3, sudo: admin2.id }).expect(200);
    await admin().post(`/api/v4/users/${u.id}/unblock`).expect(201);
    const list = await userEvents(u.id);
    expect(list.map((e) => [e.author_id, e.details.author_name, e.details.impersonated_by])).toEqual([
      [1, 'Administrator', undefined],
      [admin2.id, 'Second Admin', 'root'],
      [admin2.id, 'Second Admin', 'root'],
    ]);
    const gql = await admin().graphql(
      `{ auditEvents(entityType: "User", entityId: ${u.id}) { nodes { authorId details { customMessage impersonatedBy } } } }`,
    );
    expect(gql.body.data.auditEvents.nodes[2]).toEqual({
      authorId: admin2.id,
      details: { customMessage: 'Blocked user', impersonatedBy: 'root' },
    });
  });
});
