import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

const ROOT = path.resolve(__dirname, '../..');
const RELEASE = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
// In process the app runs from src/: the revision is the checkout's HEAD.
const HEAD = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim().slice(0, 11);
const VERSION = `10.3.0+gitlab-admin.${RELEASE}`;

async function tokenWithScopes(scopes: string[]): Promise<string> {
  const u = await createUser(t);
  const token = `tok-${crypto.randomBytes(12).toString('hex')}`;
  await t.orm.em
    .getConnection()
    .execute(`insert into personal_access_tokens (user_id, name, token_digest, scopes) values (?, 'scoped', ?, ?)`, [
      u.id,
      crypto.createHash('sha256').update(token).digest('hex'),
      `{${scopes.join(',')}}`,
    ]);
  return token;
}

describe('GET /version', () => {
  it('answers 401 to an anonymous caller and to a bad token', async () => {
    for (const token of [undefined, 'no-such-token']) {
      const res = await api(t, token).get('/api/v4/version');
      expect([res.status, res.body]).toEqual([401, { message: '401 Unauthorized' }]);
    }
  });

  it('answers any user GitLab 10.3 keys: the GitLab version with our release as build metadata, the revision', async () => {
    const user = await createUser(t);
    for (const token of [user.token, ROOT_TOKEN, await tokenWithScopes(['read_user'])]) {
      const res = await api(t, token).get('/api/v4/version');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(Object.keys(res.body)).toEqual(['version', 'revision']);
      expect(res.body).toEqual({ version: VERSION, revision: HEAD });
    }
  });
});

describe('GET /metadata', () => {
  it('answers 401 to an anonymous caller', async () => {
    const res = await api(t).get('/api/v4/metadata');
    expect([res.status, res.body]).toEqual([401, { message: '401 Unauthorized' }]);
  });

  it("answers GitLab's keys, KAS disabled, not enterprise", async () => {
    const user = await createUser(t);
    const res = await api(t, user.token).get('/api/v4/metadata');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['version', 'revision', 'kas', 'enterprise']);
    expect(Object.keys(res.body.kas)).toEqual(['enabled', 'externalUrl', 'externalK8sProxyUrl', 'version']);
    expect(res.body).toEqual({
      version: VERSION,
      revision: HEAD,
      kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
      enterprise: false,
    });
  });
});

describe('GraphQL metadata', () => {
  const query = '{ metadata { version revision enterprise kas { enabled externalUrl externalK8sProxyUrl version } } }';

  it('shows the values REST shows', async () => {
    const user = await createUser(t);
    const [gql, rest] = await Promise.all([
      api(t, user.token).graphql(query),
      api(t, user.token).get('/api/v4/metadata'),
    ]);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.metadata).toEqual(rest.body);
  });

  it('is null for an anonymous caller, without an error (as GitLab)', async () => {
    const res = await api(t).graphql(query);
    expect(res.body).toEqual({ data: { metadata: null } });
  });
});
