import { ROOT_TOKEN, useTestApp } from '../support/test-app';
import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { liveHarness, type LiveStream } from '../support/live';
import { createJob, createRunner } from '../runners/runner-factories';
import { waitFor } from '../reliability/fault-support';

/**
 * Live job updates: Subscription.ciJobStatusUpdated(jobId), as GitLab's. Jobs change status
 * outside this service (the CI system shares the database): a trigger on ci_builds NOTIFYs each committed
 * status change, and each subscriber that may read the job receives it as it is then, on any instance.
 */
const t = useTestApp();
const live = liveHarness();
afterEach(() => live.disposeClients());
afterAll(() => live.closeServers());

const JOB =
  'subscription($jobId: CiBuildID!) { ciJobStatusUpdated(jobId: $jobId) { id databaseId status name startedAt project { id: databaseId } } }';
const gid = (id: number) => `gid://gitlab/Ci::Build/${id}`;
const settle = () => new Promise((r) => setTimeout(r, 300));

/** As the CI system writes it: plain SQL on the shared database, committed at once. */
async function setStatus(jobId: number, status: string): Promise<void> {
  await t.orm.em
    .getConnection()
    .execute(
      `update ci_builds set status = ?, started_at = coalesce(started_at, now()), updated_at = now() where id = ?`,
      [status, jobId],
    );
}

const statuses = (s: LiveStream) => s.events.map((e) => (e.ciJobStatusUpdated as { status: string } | null)?.status);

async function fixture() {
  const g = await createGroup(t, { path: 'ci' });
  const project = await createProject(t, { namespace: g });
  const runner = await createRunner(t, { projects: [project] });
  const job = await createJob(t, { runner, project, status: 'pending', name: 'rspec' });
  const other = await createJob(t, { runner, project, status: 'pending', name: 'lint' });
  return { g, project, runner, job, other };
}

describe('Subscription.ciJobStatusUpdated', () => {
  it('delivers each committed status change of the job, read again, within 500 ms of the UPDATE', async () => {
    const url = await live.serve(t.attach, t.app);
    const { project, job, other } = await fixture();
    const s = await live.subscribe(live.connect(url, ROOT_TOKEN), JOB, { jobId: gid(job.id) });
    const byDatabaseId = await live.subscribe(
      live.connect(url, ROOT_TOKEN),
      `subscription { ciJobStatusUpdated(jobId: ${job.id}) { status } }`,
    );

    const sent = Date.now();
    await setStatus(job.id, 'running');
    await waitFor('running', () => s.events.length >= 1, 5000);
    const latency = s.at[0] - sent;
    console.log(`ciJobStatusUpdated latency, same instance (ms): ${latency}`);
    expect(latency).toBeLessThan(500);
    expect(s.events[0]).toEqual({
      ciJobStatusUpdated: {
        id: gid(job.id),
        databaseId: job.id,
        status: 'RUNNING',
        name: 'rspec',
        startedAt: expect.any(String),
        project: { id: project.id },
      },
    });

    // Not events: another job's change, an update that leaves the status as it is, a rolled-back change.
    await setStatus(other.id, 'running');
    await t.orm.em
      .getConnection()
      .execute(`update ci_builds set name = 'rspec 1/2', status = status where id = ?`, [job.id]);
    await t.orm.em
      .transactional(async (tx) => {
        await tx
          .getConnection()
          .execute(
            `update ci_builds set status = 'canceled' where id = ?`,
            [job.id],
            'all',
            tx.getTransactionContext(),
          );
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await setStatus(job.id, 'success');
    await waitFor('success', () => s.events.length >= 2, 5000);
    await settle();
    expect(s.errors).toEqual([]);
    expect(statuses(s)).toEqual(['RUNNING', 'SUCCESS']);
    expect((s.events[1].ciJobStatusUpdated as { name: string }).name).toBe('rspec 1/2');
    expect(byDatabaseId.events).toEqual([
      { ciJobStatusUpdated: { status: 'RUNNING' } },
      { ciJobStatusUpdated: { status: 'SUCCESS' } },
    ]);
  });

  it('reaches a subscriber on another instance within 500 ms', async () => {
    const second = await t.secondInstance();
    const url = await live.serve(second.attach, second.app);
    const { job } = await fixture();
    const s = await live.subscribe(live.connect(url, ROOT_TOKEN), JOB, { jobId: gid(job.id) });
    const latencies: number[] = [];
    for (const status of ['running', 'failed', 'pending']) {
      const sent = Date.now();
      await setStatus(job.id, status);
      await waitFor(`${status} on the second instance`, () => s.events.length > latencies.length, 5000);
      latencies.push(s.at[latencies.length] - sent);
    }
    console.log(`ciJobStatusUpdated latency, other instance (ms): ${JSON.stringify(latencies)}`);
    for (const ms of latencies) expect(ms).toBeLessThan(500);
    expect(statuses(s)).toEqual(['RUNNING', 'FAILED', 'PENDING']);
    await second.close();
  });

  it('sends nothing (and no error) to users who may not read the job, checked per event', async () => {
    const url = await live.serve(t.attach, t.app);
    const { project, job } = await fixture();
    const member = await createUser(t, { username: 'member' });
    const outsider = await createUser(t, { username: 'outsider' });
    await addProjectMember(t, project, member, 20);
    const hers = await live.subscribe(live.connect(url, member.token), JOB, { jobId: gid(job.id) });
    const his = await live.subscribe(live.connect(url, outsider.token), JOB, { jobId: gid(job.id) });
    const missing = await live.subscribe(live.connect(url, outsider.token), JOB, { jobId: gid(job.id + 1000) });
    const anonymous = await live.subscribe(live.connect(url), JOB, { jobId: gid(job.id) });
    await setStatus(job.id, 'running');
    await waitFor('the member has it', () => hers.events.length >= 1, 5000);
    // Her membership ends: the next change is not hers any more.
    await t.orm.em
      .getConnection()
      .execute('delete from project_members where project_id = ? and user_id = ?', [project.id, member.id]);
    await setStatus(job.id, 'success');
    await settle();
    expect(statuses(hers)).toEqual(['RUNNING']);
    expect(hers.errors).toEqual([]);
    // The outsider learns nothing: no event, no error, the same as for a job that does not exist.
    expect([his.events, his.errors, his.done]).toEqual([[], [], false]);
    expect([missing.events, missing.errors, missing.done]).toEqual([[], [], false]);
    expect(JSON.stringify(anonymous.errors)).toContain('UNAUTHENTICATED');
    expect(anonymous.events).toEqual([]);
  });

  it('public projects: any signed-in user, as node(id) shows the job', async () => {
    const url = await live.serve(t.attach, t.app);
    const g = await createGroup(t, { path: 'open', visibility: 'public' });
    const project = await createProject(t, { namespace: g, visibility: 'public' });
    const job = await createJob(t, { runner: null, project, status: 'created' });
    const someone = await createUser(t, { username: 'someone' });
    const s = await live.subscribe(live.connect(url, someone.token), JOB, { jobId: gid(job.id) });
    await setStatus(job.id, 'pending');
    await waitFor('pending', () => s.events.length >= 1, 5000);
    expect(statuses(s)).toEqual(['PENDING']);
  });

  it('refuses an id of another type (BAD_USER_INPUT)', async () => {
    const url = await live.serve(t.attach, t.app);
    const s = await live.subscribe(live.connect(url, ROOT_TOKEN), JOB, { jobId: 'gid://gitlab/Ci::Runner/1' });
    await waitFor('refused', () => s.errors.length > 0, 5000);
    expect(JSON.stringify(s.errors)).toContain('gid://gitlab/Ci::Build/<id>');
  });
});
