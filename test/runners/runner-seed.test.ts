import { seedDemo } from '../../src/modules/demo/demo-data.seed';
import { seedScale } from '../../src/modules/demo/scale-data.seed';
import { seedCiDemo } from '../../src/modules/ci/ci-demo.seed';
import { seedRunnersDemo } from '../../src/modules/runners/runner-demo.seed';
import { seedRunnersScale } from '../../src/modules/runners/runner-scale.seed';
import { queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

describe('npm run seed: runners and jobs', () => {
  it('demo: shared, specific, locked, paused, both access levels, some online, jobs of every status; idempotent', async () => {
    const log: string[] = [];
    await seedDemo(t.seedEnv((m) => log.push(m)));
    await seedRunnersDemo(t.seedEnv((m) => log.push(m)));
    await seedCiDemo(t.seedEnv((m) => log.push(m)));
    const kinds = await queryOne<Record<string, string>>(
      t,
      `select count(*) filter (where is_shared) as shared, count(*) filter (where not is_shared) as specific, count(*) filter (where locked) as locked,
              count(*) filter (where not active) as paused, count(distinct access_level) as levels,
              count(*) filter (where contacted_at > now() - interval '1 hour') as online from ci_runners`,
    );
    expect(kinds).toEqual({ shared: '2', specific: '4', locked: '1', paused: '2', levels: '2', online: '3' });
    expect((await queryOne<{ n: string }>(t, 'select count(distinct status) as n from ci_builds'))?.n).toBe('8');
    await seedRunnersDemo(t.seedEnv((m) => log.push(m)));
    await seedCiDemo(t.seedEnv((m) => log.push(m)));
    expect((await queryOne<{ n: string }>(t, 'select count(*) as n from ci_runners'))?.n).toBe('6');
    const all = await api(t, ROOT_TOKEN).get('/api/v4/runners/all');
    const jobs = await api(t, ROOT_TOKEN).get(`/api/v4/runners/${all.body[0].id}/jobs`);
    expect(jobs.status).toBe(200);
    expect(jobs.body).toHaveLength(8);
    expect(jobs.body[0].commit).not.toBeNull();
  });

  it('--scale N adds 10,000 jobs and 10 runners per unit, idempotently', async () => {
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await seedScale(t.orm.em.fork(), 2);
      await seedRunnersScale(t.seedEnv(() => undefined, 2));
      await seedRunnersScale(t.seedEnv(() => undefined, 2));
    } finally {
      err.mockRestore();
    }
    const c = await queryOne<Record<string, string>>(
      t,
      `select (select count(*) from ci_runners) as runners, (select count(*) from ci_runners where is_shared) as shared,
              (select count(*) from ci_builds) as jobs, (select count(distinct status) from ci_builds) as statuses,
              (select count(*) from ci_pipelines) as pipelines, (select count(*) from ci_commits) as commits,
              (select count(*) from ci_builds b where b.runner_id is not null and not exists (
                 select 1 from ci_runners r where r.id = b.runner_id and (r.is_shared or exists (
                   select 1 from ci_runner_projects rp where rp.runner_id = r.id and rp.project_id = b.project_id)))) as strays`,
    );
    expect(c).toEqual({
      runners: '20',
      shared: '2',
      jobs: '20000',
      statuses: '8',
      pipelines: '2000',
      commits: '2000',
      strays: '0',
    });
    const specific = await queryOne<{ id: number }>(
      t,
      `select id from ci_runners where description = 'scale-runner-2-5'`,
    );
    const page = await api(t, ROOT_TOKEN).get(`/api/v4/runners/${specific!.id}/jobs?per_page=100`);
    expect(page.body).toHaveLength(100);
    expect(page.headers['x-total']).toBe('1000');
  });
});
