import { parse, validate } from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { MODULES } from '../../src/modules';
import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp, type TestApp } from '../support/test-app';
import { createJob, createRunner } from '../runners/runner-factories';
import { loadDocument } from './gitlab-frontend/load';

const t = useTestApp();

/** GitLab's project Jobs page (app/assets/javascripts/ci/jobs_page), run unmodified against REST's answers. */
const GET_JOBS = 'ci/jobs_page/graphql/queries/get_jobs.query.graphql';
const GET_JOBS_COUNT = 'ci/jobs_page/graphql/queries/get_jobs_count.query.graphql';
const text = (file: string): string => loadDocument(file).source!;

const run = (file: string, variables: Record<string, unknown>, token?: string) =>
  api(t, token)
    .post('/api/graphql')
    .send({ query: text(file), variables })
    .expect(200);

interface RestJob {
  id: number;
  status: string;
  stage: string;
  name: string;
  ref: string;
  tag: boolean;
  coverage: number | null;
  duration: number | null;
  finished_at: string | null;
  user: { username: string; avatar_url: string | null; web_url: string } | null;
  commit: { id: string; short_id: string };
  pipeline: { id: number };
}

/**
 * What GitLab answers for each job of the fixture, by name (Ci::Build's rules and the badge's action for
 * a Developer): written out here, not derived from the service's code.
 */
const EXPECTED: Record<
  string,
  {
    retryable: boolean;
    playable: boolean;
    cancelable: boolean;
    active: boolean;
    stuck: boolean;
    manualJob: boolean;
    triggered: boolean;
    allowFailure: boolean;
    group: string;
    label: string;
    action: { title: string; icon: string; buttonTitle: string | null; verb: string } | null;
  }
> = {
  compile: {
    ...flags('retryable'),
    group: 'success',
    label: 'passed',
    action: { title: 'Run again', icon: 'retry', buttonTitle: 'Run this job again', verb: 'retry' },
  },
  lint: {
    ...flags('retryable', 'allowFailure'),
    group: 'failed_with_warnings',
    label: 'failed (allowed to fail)',
    action: { title: 'Run again', icon: 'retry', buttonTitle: 'Run this job again', verb: 'retry' },
  },
  'rspec 1/2': {
    ...flags('retryable', 'triggered'),
    group: 'failed',
    label: 'failed',
    action: { title: 'Run again', icon: 'retry', buttonTitle: 'Run this job again', verb: 'retry' },
  },
  'rspec 2/2': {
    ...flags('cancelable', 'active'),
    group: 'running',
    label: 'running',
    action: { title: 'Cancel', icon: 'cancel', buttonTitle: null, verb: 'cancel' },
  },
  'gpu-bench': {
    ...flags('cancelable', 'active', 'stuck'),
    group: 'pending',
    label: 'pending',
    action: { title: 'Cancel', icon: 'cancel', buttonTitle: null, verb: 'cancel' },
  },
  package: {
    ...flags('cancelable', 'active'),
    group: 'pending',
    label: 'pending',
    action: { title: 'Cancel', icon: 'cancel', buttonTitle: null, verb: 'cancel' },
  },
  deploy: {
    ...flags('playable', 'manualJob'),
    group: 'manual',
    label: 'manual play action',
    action: { title: 'Run', icon: 'play', buttonTitle: 'Run job', verb: 'play' },
  },
  'deploy-staging': {
    ...flags('retryable', 'playable', 'manualJob'),
    group: 'success',
    label: 'manual play action',
    action: { title: 'Run', icon: 'play', buttonTitle: 'Run job', verb: 'play' },
  },
  'old-try': { ...flags(), group: 'canceled', label: 'canceled', action: null },
  queued: {
    ...flags('cancelable'),
    group: 'created',
    label: 'created',
    action: { title: 'Cancel', icon: 'cancel', buttonTitle: null, verb: 'cancel' },
  },
  docs: { ...flags(), group: 'skipped', label: 'skipped', action: null },
  imported: {
    ...flags('retryable'),
    group: 'success',
    label: 'passed',
    action: { title: 'Run again', icon: 'retry', buttonTitle: 'Run this job again', verb: 'retry' },
  },
};

function flags(...on: string[]) {
  const f = (k: string) => on.includes(k);
  return {
    retryable: f('retryable'),
    playable: f('playable'),
    cancelable: f('cancelable'),
    active: f('active'),
    stuck: f('stuck'),
    manualJob: f('manualJob'),
    triggered: f('triggered'),
    allowFailure: f('allowFailure'),
  };
}

/** A project with a job in every case the page shows, oldest first (the page shows them newest first). */
async function projectWithJobs(tt: TestApp, visibility: 'public' | 'private' = 'private') {
  const g = await createGroup(tt, { path: 'acme', visibility });
  const p = await createProject(tt, { namespace: g, path: 'app', visibility });
  const developer = await createUser(tt);
  const reporter = await createUser(tt);
  await addProjectMember(tt, p, developer, 30);
  await addProjectMember(tt, p, reporter, 20);
  const runner = await createRunner(tt, { projects: [p], contactedAt: new Date(), tagList: ['docker'] });
  const base = { project: p, runner, user: developer };
  const at = (i: number) => new Date(Date.UTC(2026, 0, 2, 3, i));
  const jobs = [
    await createJob(tt, { ...base, name: 'compile', stage: 'build', tags: ['docker'], coverage: 81.5, at: at(0) }),
    await createJob(tt, { ...base, name: 'lint', status: 'failed', allowFailure: true, at: at(1) }),
    await createJob(tt, { ...base, name: 'rspec 1/2', status: 'failed', source: 3, at: at(2) }),
    await createJob(tt, { ...base, name: 'rspec 2/2', status: 'running', at: at(3) }),
    // No online runner carries `gpu`: stuck. The untagged one can go to the project's online runner.
    await createJob(tt, { ...base, runner: null, name: 'gpu-bench', status: 'pending', tags: ['gpu'], at: at(4) }),
    await createJob(tt, { ...base, runner: null, name: 'package', status: 'pending', at: at(5) }),
    await createJob(tt, {
      ...base,
      name: 'deploy',
      stage: 'deploy',
      status: 'manual',
      ref: 'v1.0',
      tag: true,
      at: at(6),
    }),
    await createJob(tt, { ...base, name: 'deploy-staging', stage: 'deploy', when: 'manual', at: at(7) }),
    await createJob(tt, { ...base, name: 'old-try', status: 'canceled', retried: true, at: at(8) }),
    await createJob(tt, { ...base, runner: null, name: 'queued', status: 'created', at: at(9) }),
    await createJob(tt, { ...base, runner: null, name: 'docs', status: 'skipped', user: null, at: at(10) }),
    await createJob(tt, { ...base, name: 'imported', source: null, at: at(11) }),
  ];
  return { g, p, developer, reporter, jobs };
}

const restJobs = async (projectId: number, token?: string, query = '') =>
  (await api(t, token).get(`/api/v4/projects/${projectId}/jobs?per_page=100${query}`).expect(200)).body as RestJob[];

describe("GitLab's project Jobs page documents", () => {
  it('validate against the public schema', async () => {
    const schema = publicView(await buildAppSchema(MODULES));
    for (const file of [GET_JOBS, GET_JOBS_COUNT])
      expect([file, validate(schema, parse(text(file))).map((e) => e.message)]).toEqual([file, []]);
  });

  it("get_jobs.query answers REST's jobs and values, newest first, with GitLab's rules, badges, actions and paths", async () => {
    const { p, developer } = await projectWithJobs(t);
    const body = (await run(GET_JOBS, { fullPath: 'acme/app' }, developer.token)).body;
    expect(body.errors).toBeUndefined();
    const rest = await restJobs(p.id, developer.token);
    const jobs = body.data.project.jobs;
    expect(body.data.project.id).toBe(`gid://gitlab/Project/${p.id}`);
    expect(jobs.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    expect(jobs.nodes.map((n: { id: string }) => n.id)).toEqual(rest.map((j) => `gid://gitlab/Ci::Build/${j.id}`));
    expect(rest).toHaveLength(12);
    for (const [i, n] of jobs.nodes.entries()) {
      const r = rest[i];
      const e = EXPECTED[r.name];
      const jobPath = `/acme/app/-/jobs/${r.id}`;
      const statusId = `${e.group}-${r.id}`;
      expect(n).toEqual({
        id: `gid://gitlab/Ci::Build/${r.id}`,
        artifacts: { nodes: [] },
        allowFailure: e.allowFailure,
        status: r.status.toUpperCase(),
        scheduledAt: null,
        manualJob: e.manualJob,
        triggered: e.triggered,
        createdByTag: r.tag,
        detailedStatus: {
          id: statusId,
          detailsPath: jobPath,
          group: e.group,
          icon: e.group === 'failed_with_warnings' ? 'status_warning' : `status_${r.status}`,
          label: e.label,
          text: {
            success: 'Passed',
            failed: 'Failed',
            running: 'Running',
            pending: 'Pending',
            manual: 'Manual',
            canceled: 'Canceled',
            created: 'Created',
            skipped: 'Skipped',
          }[r.status],
          tooltip: e.label,
          action: e.action && {
            id: `Ci::Build-${statusId}`,
            buttonTitle: e.action.buttonTitle,
            icon: e.action.icon,
            method: 'post',
            path: `${jobPath}/${e.action.verb}`,
            title: e.action.title,
          },
        },
        refName: r.ref,
        refPath: `/acme/app/-/commits/${r.ref}`,
        tags: r.name === 'compile' ? ['docker'] : r.name === 'gpu-bench' ? ['gpu'] : [],
        shortSha: r.commit.short_id,
        commitPath: `/acme/app/-/commit/${r.commit.id}`,
        pipeline: {
          id: `gid://gitlab/Ci::Pipeline/${r.pipeline.id}`,
          path: `/acme/app/-/pipelines/${r.pipeline.id}`,
          // The factory runs each pipeline as the job's user.
          user: r.user && {
            id: expect.stringMatching(/^gid:\/\/gitlab\/User\/\d+$/),
            webPath: `/${r.user.username}`,
            avatarUrl: r.user.avatar_url,
          },
        },
        stage: { id: `${r.pipeline.id}:${r.stage}`, name: r.stage },
        name: r.name,
        // A running job's duration grows between the two requests.
        duration: r.finished_at || r.duration === null ? r.duration : expect.any(Number),
        finishedAt: r.finished_at,
        coverage: r.coverage,
        retryable: e.retryable,
        playable: e.playable,
        cancelable: e.cancelable,
        active: e.active,
        stuck: e.stuck,
        userPermissions: { readBuild: true, readJobArtifacts: true, updateBuild: true, cancelBuild: true },
      });
    }
    // One job's REST detail is the list's row.
    const one = (await api(t, developer.token).get(`/api/v4/projects/${p.id}/jobs/${rest[5].id}`).expect(200)).body;
    expect(one).toEqual(rest[5]);
  });

  it('pages by cursor with the filters the page sends (statuses), as REST lists them', async () => {
    const { p, developer } = await projectWithJobs(t);
    const first = (await run(GET_JOBS, { fullPath: 'acme/app', first: 5 }, developer.token)).body.data.project.jobs;
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (
      await run(GET_JOBS, { fullPath: 'acme/app', first: 5, after: first.pageInfo.endCursor }, developer.token)
    ).body.data.project.jobs;
    expect(second.pageInfo.hasPreviousPage).toBe(true);
    const third = (
      await run(GET_JOBS, { fullPath: 'acme/app', first: 5, after: second.pageInfo.endCursor }, developer.token)
    ).body.data.project.jobs;
    expect(third.pageInfo.hasNextPage).toBe(false);
    const paged = [...first.nodes, ...second.nodes, ...third.nodes].map((n: { name: string }) => n.name);
    expect(paged).toEqual((await restJobs(p.id, developer.token)).map((j) => j.name));

    const statuses = ['FAILED', 'SUCCESS'];
    const filtered = (await run(GET_JOBS, { fullPath: 'acme/app', statuses }, developer.token)).body.data.project.jobs;
    const restFiltered = await restJobs(p.id, developer.token, '&scope[]=failed&scope[]=success');
    expect(filtered.nodes.map((n: { name: string }) => n.name)).toEqual(restFiltered.map((j) => j.name));
    expect(restFiltered.map((j) => j.name)).toEqual(['imported', 'deploy-staging', 'rspec 1/2', 'lint', 'compile']);
    // An empty list of statuses matches no job, as GitLab's finder.
    const none = (await run(GET_JOBS, { fullPath: 'acme/app', statuses: [] }, developer.token)).body;
    expect(none.data.project.jobs.nodes).toEqual([]);
  });

  it("get_jobs_count.query counts what REST lists, by statuses, by the pipeline's source, by name", async () => {
    const { p, developer } = await projectWithJobs(t);
    const count = async (variables: Record<string, unknown>) => {
      const body = (await run(GET_JOBS_COUNT, { fullPath: 'acme/app', ...variables }, developer.token)).body;
      expect(body.errors).toBeUndefined();
      expect(body.data.project.id).toBe(`gid://gitlab/Project/${p.id}`);
      return body.data.project.jobs.count;
    };
    const total = async (query: string) =>
      Number(
        (await api(t, developer.token).get(`/api/v4/projects/${p.id}/jobs${query}`).expect(200)).headers['x-total'],
      );
    expect(await count({})).toBe(await total(''));
    expect(await count({ statuses: ['PENDING', 'RUNNING'] })).toBe(await total('?scope[]=pending&scope[]=running'));
    expect(await count({ statuses: ['PENDING', 'RUNNING'] })).toBe(3);
    // Sources: the pipeline's (the factory's pipelines are pushes unless told).
    expect(await count({ sources: ['TRIGGER'] })).toBe(1);
    expect(await count({ sources: ['UNKNOWN'] })).toBe(1);
    expect(await count({ sources: ['PUSH'] })).toBe(10);
    expect(await count({ sources: ['PUSH', 'UNKNOWN'], statuses: ['SUCCESS'] })).toBe(3);
    expect(await count({ sources: ['SCAN_EXECUTION_POLICY'] })).toBe(0);
    expect(await count({ sources: [] })).toBe(12);
    // Name: contained, in any case; GitLab then ignores sources.
    expect(await count({ name: 'RSPEC' })).toBe(2);
    expect(await count({ name: 'deploy' })).toBe(2);
    expect(await count({ name: 'deploy', statuses: ['MANUAL'] })).toBe(1);
    expect(await count({ name: 'rspec', sources: ['TRIGGER'] })).toBe(2);
    expect(await count({ name: '%' })).toBe(0);
    expect(await count({ name: '' })).toBe(12);
    const named = (await run(GET_JOBS, { fullPath: 'acme/app', first: 1 }, developer.token)).body.data;
    expect(named.project.jobs.nodes).toHaveLength(1);
    const byName = (
      await api(t, developer.token)
        .post('/api/graphql')
        .send({
          query:
            '{ project(fullPath: "acme/app") { jobs(name: "rspec", first: 1) { nodes { name } pageInfo { hasNextPage } } } }',
        })
        .expect(200)
    ).body.data.project.jobs;
    expect(byName).toEqual({ nodes: [{ name: 'rspec 2/2' }], pageInfo: { hasNextPage: true } });
  });

  it('a Reporter reads the jobs without their actions; anonymous callers read a public project, not a private one', async () => {
    const { reporter } = await projectWithJobs(t);
    const seen = (await run(GET_JOBS, { fullPath: 'acme/app' }, reporter.token)).body.data.project.jobs.nodes;
    for (const n of seen as {
      name: string;
      detailedStatus: { action: unknown; label: string };
      userPermissions: unknown;
    }[]) {
      expect(n.detailedStatus.action).toBeNull();
      expect(n.userPermissions).toEqual({
        readBuild: true,
        readJobArtifacts: true,
        updateBuild: false,
        cancelBuild: false,
      });
    }
    expect(seen.find((n: { name: string }) => n.name === 'deploy')!.detailedStatus.label).toBe(
      'manual play action (not allowed)',
    );
    expect((await run(GET_JOBS, { fullPath: 'acme/app' })).body.data.project).toBeNull();
    expect((await run(GET_JOBS_COUNT, { fullPath: 'acme/app' })).body.data.project).toBeNull();
    const stranger = await createUser(t);
    expect((await run(GET_JOBS, { fullPath: 'acme/app' }, stranger.token)).body.data.project).toBeNull();
  });

  it("anonymous callers see a public project's jobs as REST does, and an admin may act on them", async () => {
    const { p } = await projectWithJobs(t, 'public');
    const anonymous = (await run(GET_JOBS, { fullPath: 'acme/app' })).body;
    expect(anonymous.errors).toBeUndefined();
    const rest = await restJobs(p.id);
    expect(anonymous.data.project.jobs.nodes.map((n: { id: string }) => n.id)).toEqual(
      rest.map((j) => `gid://gitlab/Ci::Build/${j.id}`),
    );
    expect(anonymous.data.project.jobs.nodes[0].userPermissions.updateBuild).toBe(false);
    expect((await run(GET_JOBS_COUNT, { fullPath: 'acme/app' })).body.data.project.jobs.count).toBe(rest.length);
    // Without public jobs, anonymous callers get no list (REST: 403), the project stays visible.
    await api(t, ROOT_TOKEN).put(`/api/v4/projects/${p.id}`).send({ public_jobs: false }).expect(200);
    await api(t).get(`/api/v4/projects/${p.id}/jobs`).expect(403);
    expect((await run(GET_JOBS, { fullPath: 'acme/app' })).body.data.project).toMatchObject({ jobs: null });
    const admin = (await run(GET_JOBS, { fullPath: 'acme/app', first: 1 }, ROOT_TOKEN)).body.data.project.jobs;
    expect(admin.nodes[0].userPermissions.updateBuild).toBe(true);
  });

  it('reads a page of 12 jobs in as many statements as a page of 8 (batched per page, no query per job)', async () => {
    const { developer } = await projectWithJobs(t);
    await run(GET_JOBS, { fullPath: 'acme/app', first: 8 }, developer.token); // warm per-instance caches
    // Both pages hold pending jobs (the stuck check) and jobs with and without a user.
    const eight = await t.countQueries(() => run(GET_JOBS, { fullPath: 'acme/app', first: 8 }, developer.token));
    const all = await t.countQueries(() => run(GET_JOBS, { fullPath: 'acme/app' }, developer.token));
    expect(eight.result.body.data.project.jobs.nodes).toHaveLength(8);
    expect(all.result.body.data.project.jobs.nodes).toHaveLength(12);
    expect(all.count).toBe(eight.count);
  });
});
