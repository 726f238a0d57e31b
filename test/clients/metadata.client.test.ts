import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN } from '../support/test-app';
import { useServedTestApp } from '../support/served-app';

/** The version as unmodified clients read it: gitbeaker's Metadata.show, python-gitlab's gl.version(). */
const python = pythonGitlab('version');
const HEAD = execFileSync('git', ['-C', path.resolve(__dirname, '../..'), 'rev-parse', 'HEAD'], { encoding: 'utf8' })
  .trim()
  .slice(0, 11);

const served = useServedTestApp();

describe('gitbeaker', () => {
  it('Metadata.show reads the GitLab version with our release as build metadata', async () => {
    const meta = await new Gitlab({ host: served.host, token: ROOT_TOKEN }).Metadata.show();
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
      [served.host, ROOT_TOKEN],
    );
    const [version, revision] = JSON.parse(out) as [string, string];
    expect(version).toMatch(/^10\.3\.0\+gitlab-admin\./);
    expect(revision).toBe(HEAD);
  });
});
