import { seedDemo } from '../../src/modules/demo/demo-data.seed';
import { seedEnvironments } from '../../src/modules/environments/environment.seed';
import { seedPagesDomains } from '../../src/modules/pages-domains/pages-domain.seed';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

describe('npm run seed: environments and pages domains', () => {
  it('environments in both states and domains with and without a certificate, through the services; idempotent', async () => {
    const log: string[] = [];
    for (let run = 0; run < 2; run += 1) {
      await seedDemo(t.seedEnv((m) => log.push(m)));
      await seedEnvironments(t.seedEnv((m) => log.push(m)));
      await seedPagesDomains(t.seedEnv((m) => log.push(m)));
    }
    expect(log.filter((l) => /already present/.test(l))).toHaveLength(3);
    const envs = await api(t, ROOT_TOKEN).get('/api/v4/projects/acme%2Fweb%2Fwebsite/environments');
    expect(envs.body.map((e: { name: string; state: string }) => [e.name, e.state])).toEqual([
      ['production', 'available'],
      ['staging', 'stopped'],
      ['review/fix-login', 'available'],
    ]);
    const domains = await api(t, ROOT_TOKEN).get('/api/v4/projects/acme%2Fweb%2Fwebsite/pages/domains');
    expect(
      domains.body.map((d: { url: string; certificate?: { subject: string } }) => [d.url, d.certificate?.subject]),
    ).toEqual([
      ['http://acme.test', undefined],
      ['https://www.acme.test', '/CN=www.acme.test'],
    ]);
  });
});
