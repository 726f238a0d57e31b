import crypto from 'node:crypto';
import { createGroup, createProject, createUser, queryOne, shareProject } from '../support/factories';
import { issue } from '../support/certificates';
import { syntheticGpgKey } from '../support/gpg-keys';
import { ROOT_TOKEN, api, useTestApp } from '../support/test-app';

/**
 * What one request can make the service hold (docs/security.md, "Response size"): long texts cost
 * their declared size, a list field has at most 10 aliases per selection, stored keys are bounded in
 * size and number, lists read long columns only when they show them.
 */
const t = useTestApp({ reset: 'once' });

const gpgList = (alias: string, field = 'key', first = 100) =>
  `${alias}: gpgKeys(first: ${first}) { nodes { id ${field} } }`;
/** The signed-in user's lists (`currentUser { gpgKeys sshKeys }`). */
const mine = (lists: string) => `currentUser { ${lists} }`;

async function sshKeyText(comment = 'k@example.com'): Promise<string> {
  const { publicKey } = crypto.generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const blob = Buffer.concat([
    Buffer.from([0, 0, 0, 11]),
    Buffer.from('ssh-ed25519'),
    Buffer.from([0, 0, 0, 32]),
    raw,
  ]).toString('base64');
  return `ssh-ed25519 ${blob} ${comment}`;
}

describe("100 aliases of a user's GPG keys with their text", () => {
  it('is refused with 400 before anything runs (aliases of one list field are bounded)', async () => {
    const user = await createUser(t);
    const query = `{ ${mine(Array.from({ length: 100 }, (_, i) => gpgList(`a${i}`)).join(' '))} }`;
    const res = await api(t, user.token).graphql(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      message: 'Query selects the list field gpgKeys under more than 10 aliases in one selection; the maximum is 10',
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  });

  it('10 aliases of one list field are served, 11 are not (inline fragments count in their selection)', async () => {
    const user = await createUser(t);
    const ten = Array.from({ length: 10 }, (_, i) => gpgList(`a${i}`, 'fingerprint', 5)).join(' ');
    expect((await api(t, user.token).graphql(`{ ${mine(ten)} }`)).body.data.currentUser.a9).toEqual({ nodes: [] });
    const eleven = await api(t, user.token).graphql(
      `{ ${mine(`${ten} ... on User { a10: gpgKeys(first: 5) { nodes { id } } }`)} }`,
    );
    expect(eleven.status).toBe(400);
    expect(eleven.body.errors[0].message).toContain('under more than 10 aliases');
    // Other list fields have their own ten; a non-list field (currentUser) is not counted.
    const mixed = `{ ${mine(`${ten} ${Array.from({ length: 10 }, (_, i) => `k${i}: sshKeys(first: 5) { nodes { id } }`).join(' ')}`)} ${Array.from({ length: 20 }, (_, i) => `u${i}: currentUser { id }`).join(' ')} }`;
    expect((await api(t, user.token).graphql(mixed)).status).toBe(200);
  });

  it('a long text costs its declared size: a page of 100 GPG keys with their text fits once, twice is refused', async () => {
    const user = await createUser(t);
    const one = await api(t, user.token).graphql(`{ queryComplexity { score } ${mine(gpgList('a'))} }`);
    // 2 (queryComplexity { score }) + 1 (currentUser) + 1 (the list) + 100 × (nodes 1 + id 1 + key 65,536 / 256).
    expect(one.body.data.queryComplexity.score).toBe(2 + 1 + 1 + 100 * (1 + 1 + 256));
    const withoutText = await api(t, user.token).graphql(
      `{ queryComplexity { score } ${mine(gpgList('a', 'fingerprint'))} }`,
    );
    expect(withoutText.body.data.queryComplexity.score).toBe(2 + 1 + 1 + 100 * 3);
    const two = await api(t, user.token).graphql(`{ ${mine(`${gpgList('a')} ${gpgList('b')}`)} }`);
    expect(two.status).toBe(400);
    expect(two.body.errors[0]).toMatchObject({
      message: 'Query complexity 51603 exceeds the maximum of 30000',
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  });

  it('declares a size on every text that can hold more than 256 characters', async () => {
    const res = await api(t, ROOT_TOKEN).graphql(`{ queryComplexity { score }
      broadcastMessages(first: 1) { nodes { message } }
      projects(first: 1) { nodes { description } }
      systemHooks(first: 1) { nodes { url } }
      applicationSettings { signInText }
      pagesDomains(first: 1) { nodes { certificate { certificate certificateText subject } } }
      currentUser { sshKeys(first: 1) { nodes { key } } } }`);
    expect(res.body.errors).toBeUndefined();
    // 2 + message 40 + description 8 + url 8 + signInText 256 + certificate 256 + 1,024 + 256 + SSH key 20,
    // plus one per list, `nodes` and object.
    expect(res.body.data.queryComplexity.score).toBe(
      2 + (2 + 40) + (2 + 8) + (2 + 8) + (1 + 256) + (2 + 1 + 256 + 1024 + 256) + (1 + 2 + 20),
    );
  });
});

describe('stored sizes', () => {
  it('a GPG key is at most 65,536 characters; a user has at most 100 GPG keys, also when adds race', async () => {
    const user = await createUser(t);
    const tooLong = syntheticGpgKey(66_000);
    expect(tooLong.length).toBeGreaterThan(65_536);
    const long = await api(t, user.token).post('/api/v4/user/gpg_keys').send({ key: tooLong });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: { key: ['is too long (maximum is 65536 characters)'] } });
    // 95 keys stored, then 10 adds at once: five succeed, the others are refused.
    for (let i = 0; i < 95; i += 1)
      await api(t, user.token)
        .post('/api/v4/user/gpg_keys')
        .send({ key: syntheticGpgKey(600) })
        .expect(201);
    const raced = await Promise.all(
      Array.from({ length: 10 }, () =>
        api(t, user.token)
          .post('/api/v4/user/gpg_keys')
          .send({ key: syntheticGpgKey(600) }),
      ),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([...Array(5).fill(201), ...Array(5).fill(400)]);
    expect(raced.find((r) => r.status === 400)!.body).toEqual({
      message: { base: ['You have reached the maximum of 100 GPG keys'] },
    });
    expect(
      await queryOne<{ n: number }>(t, 'select count(*)::int as n from gpg_keys where user_id = ?', [user.id]),
    ).toEqual({ n: 100 });
    // GraphQL answers the same model error.
    const gql = await api(t, user.token).graphql(
      'mutation($k: String!) { currentUserGpgKeyCreate(input: { key: $k }) { gpgKey { id } errors } }',
      { k: syntheticGpgKey(600) },
    );
    expect(gql.body).toEqual({
      data: { currentUserGpgKeyCreate: { gpgKey: null, errors: ['You have reached the maximum of 100 GPG keys'] } },
    });
    // Another user is not affected.
    const other = await createUser(t);
    await api(t, other.token)
      .post('/api/v4/user/gpg_keys')
      .send({ key: syntheticGpgKey(65_000) })
      .expect(201);
  });

  it('a user has at most 1,000 SSH keys', async () => {
    const user = await createUser(t);
    await t.orm.em.getConnection().execute(
      `insert into keys (user_id, title, key, fingerprint, created_at, updated_at)
       select ?, 'k' || i, 'ssh-ed25519 AAAA' || i, md5(? || i::text), now(), now() from generate_series(1, 999) i`,
      [user.id, `${user.id}-`],
    );
    await api(t, user.token)
      .post('/api/v4/user/keys')
      .send({ title: 'last', key: await sshKeyText() })
      .expect(201);
    const over = await api(t, user.token)
      .post('/api/v4/user/keys')
      .send({ title: 'over', key: await sshKeyText() });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ message: { base: ['You have reached the maximum of 1000 SSH keys'] } });
  });

  it('a broadcast message is at most 10,000 characters, the free-text settings 65,536', async () => {
    const long = await api(t, ROOT_TOKEN)
      .post('/api/v4/broadcast_messages')
      .send({ message: 'm'.repeat(10_001) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: { message: ['is too long (maximum is 10000 characters)'] } });
    await api(t, ROOT_TOKEN)
      .post('/api/v4/broadcast_messages')
      .send({ message: 'm'.repeat(10_000) })
      .expect(201);
    const settings = await api(t, ROOT_TOKEN)
      .put('/api/v4/application/settings')
      .send({ sign_in_text: 's'.repeat(65_537) });
    expect(settings.status).toBe(400);
    expect(settings.body).toEqual({ message: { sign_in_text: ['is too long (maximum is 65536 characters)'] } });
    await api(t, ROOT_TOKEN)
      .put('/api/v4/application/settings')
      .send({ sign_in_text: 's'.repeat(65_536) })
      .expect(200);
  });
});

describe('lists read long columns only when they show them', () => {
  it('GPG keys: the same rows with and without the key text, through nodes, edges and fragments', async () => {
    const user = await createUser(t);
    const key = syntheticGpgKey(2_000);
    await api(t, user.token).post('/api/v4/user/gpg_keys').send({ key }).expect(201);
    const res = await api(t, user.token).graphql(`fragment K on GpgKey { key }
      { currentUser { a: gpgKeys { nodes { fingerprint } } b: gpgKeys { edges { node { ...K } } } c: gpgKeys { nodes { ... on GpgKey { key } } } } }`);
    const lists = res.body.data.currentUser;
    expect(lists.a.nodes[0].fingerprint).toMatch(/^[0-9A-F]{40}$/);
    expect(lists.b.edges[0].node.key).toBe(key);
    expect(lists.c.nodes[0].key).toBe(key);
    expect((await api(t, user.token).get('/api/v4/user/gpg_keys')).body[0].key).toBe(key);
  });

  it('pages domains: url without reading certificates; certificates of node lookups are read in one batch', async () => {
    const ec = await issue({ cn: 'size.domain.test', kind: 'ec' });
    const p = await createProject(t, { namespace: await createGroup(t) });
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${p.id}/pages/domains`)
      .send({ domain: 'size.domain.test', certificate: ec.pem, key: ec.keyPem })
      .expect(201);
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${p.id}/pages/domains`)
      .send({ domain: 'plain.domain.test' })
      .expect(201);
    const list = await api(t, ROOT_TOKEN).graphql(
      `{ project(id: "${p.id}") { pagesDomains { nodes { id domain url } } } }`,
    );
    expect(list.body.data.project.pagesDomains.nodes.map((d: { url: string }) => d.url)).toEqual([
      'http://plain.domain.test',
      'https://size.domain.test',
    ]);
    const ids = list.body.data.project.pagesDomains.nodes.map((d: { id: string }) => d.id);
    const nodes = await api(t, ROOT_TOKEN).graphql(
      `{ nodes(ids: ${JSON.stringify(ids)}) { ... on PagesDomain { url certificate { subject certificate } } } }`,
    );
    expect(nodes.body.data.nodes).toEqual([
      { url: 'http://plain.domain.test', certificate: null },
      { url: 'https://size.domain.test', certificate: { subject: '/CN=size.domain.test', certificate: ec.pem.trim() } },
    ]);
    const rest = await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/pages/domains`);
    expect(rest.body[1].certificate.certificate).toBe(nodes.body.data.nodes[1].certificate.certificate);
  });
});

describe('node(ProjectGroupLink)', () => {
  it('needs the linked group to be visible too, as Project.sharedWithGroups', async () => {
    const owner = await createUser(t);
    const outsider = await createUser(t);
    const project = await createProject(t, {
      namespace: await createGroup(t, { visibility: 'public' }),
      visibility: 'public',
    });
    const hidden = await createGroup(t, { visibility: 'private' });
    await shareProject(t, project, hidden, 30);
    await t.orm.em
      .getConnection()
      .execute('insert into group_members (group_id, user_id, access_level) values (?, ?, 50)', [hidden.id, owner.id]);
    const link = await queryOne<{ id: number }>(t, 'select id from project_group_links where group_id = ?', [
      hidden.id,
    ]);
    const q = `{ node(id: "gid://gitlab/ProjectGroupLink/${link!.id}") { ... on ProjectGroupLink { groupId groupAccess } } nodes(ids: ["gid://gitlab/ProjectGroupLink/${link!.id}"]) { id } }`;
    for (const token of [undefined, outsider.token]) {
      const res = await api(t, token).graphql(q);
      expect(res.body.data).toEqual({ node: null, nodes: [null] });
    }
    const member = await api(t, owner.token).graphql(q);
    expect(member.body.data.node).toEqual({ groupId: hidden.id, groupAccess: expect.anything() });
  });
});
