import type { AddressInfo } from 'node:net';
import { pythonGitlab } from '../support/python-gitlab';
import { ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * python-gitlab 3.12's rate-limit handling against this service from 127.0.0.1 (its functional
 * test_rate_limits, scaled down: 1 request per 3 s): obeying the limit (waiting Retry-After on a 429)
 * its creates succeed; without, the 429 reaches the caller as GitlabCreateError "Retry later".
 */
const t = useTestApp();
const python = pythonGitlab('rate limits');

const SCRIPT = `
import json, sys
import gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
s = gl.settings.get()
s.throttle_authenticated_api_enabled = True
s.throttle_authenticated_api_requests_per_period = 1
s.throttle_authenticated_api_period_in_seconds = 3
s.save()
ok = [gl.groups.create({"name": "ok%d" % i, "path": "ok%d" % i}).path for i in range(2)]
error = None
try:
    for i in range(10):
        gl.groups.create({"name": "fail%d" % i, "path": "fail%d" % i}, obey_rate_limit=False)
except gitlab.GitlabCreateError as e:
    error = {"code": e.response_code, "message": str(e)}
s.throttle_authenticated_api_enabled = False
s.save()
print(json.dumps({"ok": ok, "error": error}))
`;

python.describe('python-gitlab and the rate limits', () => {
  it('sees 429 Retry later from localhost; obeying the limit, its creates succeed', async () => {
    const url = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    const out = JSON.parse(await python.run(SCRIPT, [url, ROOT_TOKEN])) as {
      ok: string[];
      error: { code: number; message: string } | null;
    };
    expect(out.ok).toEqual(['ok0', 'ok1']);
    expect(out.error?.code).toBe(429);
    expect(out.error?.message).toContain('Retry later');
    const settings = await t.orm.em
      .getConnection()
      .execute('select throttle_authenticated_api_enabled as enabled from application_settings');
    expect(settings).toEqual([{ enabled: false }]);
  }, 60000);
});
