import { parse, validate } from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { MODULES } from '../../src/modules';
import { createGroup, createProject } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createJob, createRunner } from '../runners/runner-factories';
import { loadDocument } from './gitlab-frontend/load';

const t = useTestApp();

/** GitLab's frontend documents kept in test/graphql/gitlab-frontend (documents/README.md): each runs unmodified. */
const DOCUMENTS = [
  'ci/runner/graphql/show/runner_jobs.query.graphql',
  'ci/runner/graphql/shared/runner_toggle_paused.mutation.graphql',
  'ci/runner/graphql/list/runner_job_count.query.graphql',
  'ci/runner/graphql/edit/runner_form.query.graphql',
  'ci/runner/graphql/edit/runner_update.mutation.graphql',
];

const text = (file: string): string => loadDocument(file).source!;

const run = (file: string, variables: Record<string, unknown>, token = ROOT_TOKEN) =>
  api(t, token)
    .post('/api/graphql')
    .send({ query: text(file), variables })
    .expect(200);

describe("GitLab's frontend GraphQL documents", () => {
  it('validate against the public schema', async () => {
    const schema = publicView(await buildAppSchema(MODULES));
    for (const file of DOCUMENTS)
      expect([file, validate(schema, parse(text(file))).map((e) => e.message)]).toEqual([file, []]);
  });

  async function runnerWithJobs() {
    const g = await createGroup(t, { path: 'ci' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    const runner = await createRunner(t, { projects: [p] });
    const jobs = [
      await createJob(t, { runner, project: p, status: 'success', tags: ['docker'] }),
      await createJob(t, { runner, project: p, status: 'failed' }),
      await createJob(t, { runner, project: p, status: 'running', tags: ['docker', 'linux'] }),
    ];
    return { p, runner, jobs };
  }

  it("the runner page's jobs (runner_jobs.query): the REST job list's jobs and values, with GitLab's badges and paths, paged by cursor", async () => {
    const { runner, jobs } = await runnerWithJobs();
    const id = `gid://gitlab/Ci::Runner/${runner.id}`;
    const first = (await run(DOCUMENTS[0], { id, first: 2 })).body;
    expect(first.errors).toBeUndefined();
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${runner.id}/jobs`).expect(200)).body as {
      id: number;
      status: string;
      duration: number | null;
      finished_at: string | null;
      commit: { id: string; short_id: string };
      project: { name: string };
    }[];
    const page1 = first.data.runner.jobs;
    expect(first.data.runner.projectCount).toBe(1);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const second = (await run(DOCUMENTS[0], { id, first: 2, after: page1.pageInfo.endCursor })).body.data.runner.jobs;
    expect(second.pageInfo.hasNextPage).toBe(false);
    const nodes = [...page1.nodes, ...second.nodes];
    expect(nodes.map((n: { id: string }) => n.id)).toEqual(rest.map((j) => `gid://gitlab/Ci::Build/${j.id}`));
    for (const [i, n] of nodes.entries()) {
      const r = rest[i];
      expect(n.detailedStatus).toEqual({
        id: `${r.status}-${r.id}`,
        detailsPath: `/ci/app/-/jobs/${r.id}`,
        group: r.status,
        icon: `status_${r.status}`,
        text: { success: 'Passed', failed: 'Failed', running: 'Running' }[r.status],
      });
      expect(n.shortSha).toBe(r.commit.short_id);
      expect(n.commitPath).toBe(`/ci/app/-/commit/${r.commit.id}`);
      expect(n.pipeline.project).toMatchObject({ name: r.project.name, webUrl: expect.stringMatching(/\/ci\/app$/) });
      // A running job's duration grows between the two requests.
      if (r.finished_at) expect(n.duration).toBe(r.duration);
      else expect(n.duration).toBeGreaterThanOrEqual(r.duration!);
      expect(n.finishedAt).toBe(r.finished_at);
      expect(n.queuedDuration).toBe(1);
    }
    expect(nodes.map((n: { tags: string[] }) => n.tags)).toEqual([['docker'], [], ['docker', 'linux']]);
    expect(jobs).toHaveLength(3);
  });

  it('the pause button (runner_toggle_paused.mutation) and the job count (runner_job_count.query)', async () => {
    const { runner } = await runnerWithJobs();
    const id = `gid://gitlab/Ci::Runner/${runner.id}`;
    const paused = (await run(DOCUMENTS[1], { input: { id, paused: true } })).body;
    expect(paused).toEqual({ data: { runnerUpdate: { runner: { id, paused: true }, errors: [] } } });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${runner.id}`)).body.active).toBe(false);
    const count = (await run(DOCUMENTS[2], { id })).body;
    expect(count).toEqual({ data: { runner: { id, jobCount: 3 } } });
  });

  it('the runner edit form (runner_form.query) shows what REST shows and who created it; its save (runner_update.mutation) writes what REST then reads', async () => {
    const created = await api(t, ROOT_TOKEN)
      .post('/api/v4/user/runners')
      .send({ runner_type: 'instance_type', description: 'edit-me', tag_list: 'docker', maximum_timeout: 3600 })
      .expect(201);
    const id = `gid://gitlab/Ci::Runner/${created.body.id}`;
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${created.body.id}`).expect(200)).body;
    const root = (await api(t, ROOT_TOKEN).get('/api/v4/user').expect(200)).body;
    const form = (await run(DOCUMENTS[3], { id })).body;
    expect(form.errors).toBeUndefined();
    expect(form.data.runner).toEqual({
      id,
      shortSha: created.body.token.replace(/^glrt-/, '').slice(0, 8),
      runnerType: 'INSTANCE_TYPE',
      paused: !rest.active,
      accessLevel: rest.access_level.toUpperCase(),
      runUntagged: rest.run_untagged,
      locked: rest.locked,
      description: rest.description,
      maximumTimeout: 3600,
      tagList: rest.tag_list,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      createdBy: {
        id: `gid://gitlab/User/${root.id}`,
        avatarUrl: root.avatar_url,
        name: root.name,
        username: root.username,
        webUrl: root.web_url,
      },
      status: 'NEVER_CONTACTED',
      contactedAt: rest.contacted_at,
    });

    const input = {
      id,
      description: 'edited',
      maximumTimeout: 7200,
      tagList: ['linux'],
      runUntagged: true,
      locked: true,
    };
    const saved = (await run(DOCUMENTS[4], { input })).body;
    expect(saved.data.runnerUpdate.errors).toEqual([]);
    expect(saved.data.runnerUpdate.runner).toMatchObject({ description: 'edited', maximumTimeout: 7200, locked: true });
    const after = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${created.body.id}`).expect(200)).body;
    expect(after).toMatchObject({ description: 'edited', tag_list: ['linux'], run_untagged: true, locked: true });
    const short = (await run(DOCUMENTS[4], { input: { id, maximumTimeout: 60 } })).body;
    expect(short.data.runnerUpdate).toEqual({
      runner: null,
      errors: ['Maximum timeout needs to be at least 10 minutes'],
    });
  });
});
