import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/** The version as unmodified clients read it: gitbeaker's Metadata.show, python-gitlab's gl.version(). */
const t = {} as TestApp;
let server: http.Server;
let host: string;
const python = pythonGitlab('version');
const HEAD = execFileSync('git', ['-C', path.resolve(__dirname, '../..'), 'rev-parse', 'HEAD'], { encoding: 'utf8' })
  .trim()
  .slice(0, 11);

beforeAll(async () => {
  server = http.createServer((req, res) => t.app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(t, await setupTestApp({ externalUrl: host }));
  await t.reset();
}, 60000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('gitbeaker', () => {
  it('Metadata.show reads the GitLab version with our release as build metadata', async () => {
    const meta = await new Gitlab({ host, token: ROOT_TOKEN }).Metadata.show();
    expect(meta.version).toMatch(/^10\.3\.0\+gitlab-admin\.\d+\.\d+\.\d+/);
    expect(meta.revision).toBe(HEAD);
    expect(meta.kas.enabled).toBe(false);
    expect(meta.enterprise).toBe(false);
  });
});

python.describe('python-gitlab', () => {
  it('gl.version() answers the version and revision (not "unknown")', async () => {
    const out = await python.run(
      'import gitlab, json, sys\ngl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])\nprint(json.dumps(gl.version()))',
      [host, ROOT_TOKEN],
    );
    const [version, revision] = JSON.parse(out) as [string, string];
    expect(version).toMatch(/^10\.3\.0\+gitlab-admin\./);
    expect(revision).toBe(HEAD);
  });
});
