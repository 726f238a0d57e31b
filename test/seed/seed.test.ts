import { seedDemo } from '../../src/modules/demo/demo-data.seed';
import { seedScale } from '../../src/modules/demo/scale-data.seed';
import { queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

async function counts() {
  return queryOne<{ groups: string; projects: string; users: string; unlinked: string; depth: number }>(
    t,
    `select (select count(*) from namespaces where kind = 'group') as groups, (select count(*) from projects) as projects,
            (select count(*) from users) as users, (select count(*) from namespaces where traversal_ids = '{}') as unlinked,
            (select max(array_length(traversal_ids, 1)) from namespaces) as depth`,
  );
}

describe('npm run seed', () => {
  it('demo data goes through the services and is idempotent', async () => {
    const log: string[] = [];
    await seedDemo(t.seedEnv((m) => log.push(m)));
    const first = await counts();
    await seedDemo(t.seedEnv((m) => log.push(m)));
    expect(await counts()).toEqual(first);
    expect(log[1]).toMatch(/already present/);
    const acme = await api(t, ROOT_TOKEN).get('/api/v4/groups/acme%2Fplatform%2Finfra');
    expect(acme.body.visibility).toBe('private');
    expect((await api(t, ROOT_TOKEN).get('/api/v4/groups?statistics=true&search=acme')).status).toBe(200);
  });

  it('--scale N creates N × (100 groups on three levels, 1,000 projects, 100 users) in one run, idempotently', async () => {
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await seedScale(t.orm.em.fork(), 2);
      expect(await counts()).toEqual({ groups: '200', projects: '2000', users: '201', unlinked: '0', depth: 3 });
      await seedScale(t.orm.em.fork(), 2);
      expect((await counts())?.projects).toBe('2000');
    } finally {
      err.mockRestore();
    }
    const sub = await api(t, ROOT_TOKEN).get('/api/v4/groups/scale-1%2Fteam-1/subgroups');
    expect(sub.body.map((g: { full_path: string }) => g.full_path)).toEqual([
      'scale-1/team-1/squad-1',
      'scale-1/team-1/squad-2',
    ]);
  });
});
