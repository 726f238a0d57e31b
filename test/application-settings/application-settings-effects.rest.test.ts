import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { addGroupMember, createGroup, createUser } from '../support/factories';

// The clients' addresses come from X-Forwarded-For, as behind a configured proxy (TRUST_PROXY).
const t = useTestApp({ trustProxy: 'loopback' });
const URL = '/api/v4/application/settings';
const put = (body: Record<string, unknown>) => api(t, ROOT_TOKEN).put(URL).send(body).expect(200);

describe('settings in effect', () => {
  it('default_group_visibility and default_project_visibility apply when a create omits visibility', async () => {
    const u = await createUser(t);
    let g = await api(t, u.token).post('/api/v4/groups').send({ name: 'G1', path: 'g1' }).expect(201);
    let p = await api(t, u.token).post('/api/v4/projects').send({ name: 'p1' }).expect(201);
    expect([g.body.visibility, p.body.visibility]).toEqual(['private', 'private']);
    await put({ default_group_visibility: 'public', default_project_visibility: 'internal' });
    g = await api(t, u.token).post('/api/v4/groups').send({ name: 'G2', path: 'g2' }).expect(201);
    p = await api(t, u.token).post('/api/v4/projects').send({ name: 'p2' }).expect(201);
    expect([g.body.visibility, p.body.visibility]).toEqual(['public', 'internal']);
    g = await api(t, u.token)
      .post('/api/v4/groups')
      .send({ name: 'G3', path: 'g3', visibility: 'private' })
      .expect(201);
    expect(g.body.visibility).toBe('private');
  });

  it('restricted_visibility_levels refuses non-administrators (create and update) and lets administrators through', async () => {
    const u = await createUser(t);
    await put({ restricted_visibility_levels: ['public'] });
    expect(
      (await api(t, u.token).post('/api/v4/groups').send({ name: 'G', path: 'g', visibility: 'public' }).expect(400))
        .body,
    ).toEqual({
      message: 'Failed to save group {:visibility_level=>["public has been restricted by your GitLab administrator"]}',
    });
    expect(
      (await api(t, u.token).post('/api/v4/projects').send({ name: 'p', visibility: 'public' }).expect(400)).body,
    ).toEqual({ message: { visibility_level: ['public has been restricted by your GitLab administrator'] } });
    const own = await createGroup(t, { visibility: 'internal' });
    await addGroupMember(t, own, u, 50);
    expect(
      (await api(t, u.token).put(`/api/v4/groups/${own.id}`).send({ visibility: 'public' }).expect(400)).body,
    ).toEqual({ message: { visibility_level: ['public has been restricted by your GitLab administrator'] } });
    await api(t, u.token)
      .put(`/api/v4/groups/${own.id}`)
      .send({ description: 'unchanged visibility is fine' })
      .expect(200);
    const mine = await api(t, u.token)
      .post('/api/v4/projects')
      .send({ name: 'mine', visibility: 'internal' })
      .expect(201);
    expect(
      (await api(t, u.token).put(`/api/v4/projects/${mine.body.id}`).send({ visibility: 'public' }).expect(400)).body,
    ).toEqual({ message: { visibility_level: ['public has been restricted by your GitLab administrator'] } });
    const admin = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .send({ name: 'Pub', path: 'pub', visibility: 'public' })
      .expect(201);
    expect(admin.body.visibility).toBe('public');
    // A restricted default also applies to creates that omit visibility (GitLab checks the resulting level).
    await put({ restricted_visibility_levels: ['private'] });
    expect((await api(t, u.token).post('/api/v4/projects').send({ name: 'q' }).expect(400)).body).toEqual({
      message: { visibility_level: ['private has been restricted by your GitLab administrator'] },
    });
  });

  it('default_projects_limit and user_default_external shape new users', async () => {
    await put({ default_projects_limit: 7 });
    let u = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .send({ email: 'a@example.com', username: 'alice', name: 'Alice', password: 'secret123' })
      .expect(201);
    expect(u.body).toMatchObject({ projects_limit: 7, external: false, can_create_group: true });
    await put({ user_default_external: true });
    u = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .send({ email: 'b@example.com', username: 'bob', name: 'Bob', password: 'secret123' })
      .expect(201);
    expect(u.body).toMatchObject({ external: true, can_create_group: false, projects_limit: 0 });
    u = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .send({
        email: 'c@example.com',
        username: 'carol',
        name: 'Carol',
        password: 'secret123',
        external: false,
        projects_limit: 3,
      })
      .expect(201);
    expect(u.body).toMatchObject({ external: false, can_create_group: true, projects_limit: 3 });
  });

  it('shared_runners_enabled is the default of new projects', async () => {
    const u = await createUser(t);
    expect(
      (await api(t, u.token).post('/api/v4/projects').send({ name: 'a' }).expect(201)).body.shared_runners_enabled,
    ).toBe(true);
    await put({ shared_runners_enabled: false });
    expect(
      (await api(t, u.token).post('/api/v4/projects').send({ name: 'b' }).expect(201)).body.shared_runners_enabled,
    ).toBe(false);
    expect(
      (await api(t, u.token).post('/api/v4/projects').send({ name: 'c', shared_runners_enabled: true }).expect(201))
        .body.shared_runners_enabled,
    ).toBe(true);
  });

  it('unique_ips_limit refuses API requests of a user from too many addresses within the window', async () => {
    const u = await createUser(t);
    const from = (ip: string) => api(t, u.token).get('/api/v4/user').set('X-Forwarded-For', ip);
    await from('10.0.0.1').expect(200);
    await from('10.0.0.2').expect(200); // limit off: any number of addresses
    await put({ unique_ips_limit_enabled: true, unique_ips_limit_per_user: 2, unique_ips_limit_time_window: 3600 });
    await from('10.0.0.1').expect(200);
    await from('10.0.0.2').expect(200);
    expect((await from('10.0.0.3').expect(403)).body).toEqual({ message: '403 Forbidden - Too many IPs' });
    // As GitLab's limiter, the refused address was recorded: the user stays over the limit within the window.
    await from('10.0.0.1').expect(403);
    const gql = await api(t, u.token).graphql('{ currentUser { id } }').set('X-Forwarded-For', '10.0.0.4');
    expect(gql.body.errors[0]).toMatchObject({
      message: '403 Forbidden - Too many IPs',
      extensions: { code: 'FORBIDDEN' },
    });
    await put({ unique_ips_limit_time_window: 0 }); // addresses outside the window no longer count
    await from('10.0.0.5').expect(200);
    await put({ unique_ips_limit_enabled: false });
    await from('10.0.0.6').expect(200);
  });

  it('other settings (default_branch_protection, max_attachment_size, ...) are stored and served', async () => {
    const res = await put({
      default_branch_protection: 0,
      max_attachment_size: 25,
      avatar_enabled: false,
      session_expire_delay: 60,
    });
    expect(res.body).toMatchObject({
      default_branch_protection: 0,
      max_attachment_size: 25,
      avatar_enabled: false,
      session_expire_delay: 60,
    });
  });
});

describe('several instances on one database', () => {
  it('a change made through one instance is in effect on the other at its next request', async () => {
    const second = await t.secondInstance();
    const u = await createUser(t);
    const other = await import('supertest');
    const onSecond = () => other.default(second.app);
    // Warm both instances (settings row created, any per-process state loaded).
    await onSecond().get(URL).set('PRIVATE-TOKEN', ROOT_TOKEN).expect(200);
    for (const [vis, limit] of [
      ['internal', 11],
      ['public', 12],
      ['private', 13],
    ] as const) {
      await put({ default_project_visibility: vis, default_projects_limit: limit });
      const read = await onSecond().get(URL).set('PRIVATE-TOKEN', ROOT_TOKEN).expect(200);
      expect(read.body).toMatchObject({ default_project_visibility: vis, default_projects_limit: limit });
      const p = await onSecond()
        .post('/api/v4/projects')
        .set('PRIVATE-TOKEN', u.token)
        .send({ name: `p-${vis}` })
        .expect(201);
      expect(p.body.visibility).toBe(vis);
    }
    await second.close();
  });
});
