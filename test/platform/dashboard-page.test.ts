import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { buildSchema, parse, validate } from 'graphql';
import request from 'supertest';
import { addGroupMember, createGroup, createProject, createUser } from '../support/factories';
import { createJob, createRunner } from '../runners/runner-factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * The reference dashboard without a browser: /-/dashboard serves its page, script and stylesheet under their
 * CSP with no external URL; the GraphQL documents the script sends are valid against schema.graphql,
 * each screen's is one request that answers without error for an administrator, and docs/dashboard.md
 * shows each of them verbatim. (test/browser/dashboard.browser.test.ts drives the page in Chromium.)
 */
const t = useTestApp({ reset: 'once' });
const ROOT = path.join(__dirname, '../..');
const SCRIPT = fs.readFileSync(path.join(ROOT, 'src/dashboard/assets/dashboard.js'), 'utf8');

/** The script's `<documents>` block evaluated alone: its DOCUMENTS and VARIABLES. */
function documentsBlock(): {
  DOCUMENTS: Record<string, string>;
  VARIABLES: Record<string, (...a: unknown[]) => Record<string, unknown> | null>;
} {
  const m = /\/\/ <documents>[^\n]*\n([\s\S]*?)\/\/ <\/documents>/.exec(SCRIPT);
  if (!m) throw new Error('dashboard.js has no <documents> block');
  return vm.runInNewContext(`${m[1]}\n({ DOCUMENTS, VARIABLES })`) as ReturnType<typeof documentsBlock>;
}

describe('GET /-/dashboard', () => {
  it('serves the page with its CSP (no inline script, Trusted Types), nosniff and revalidation', async () => {
    for (const url of ['/-/dashboard', '/-/dashboard/']) {
      const res = await request(t.app).get(url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; require-trusted-types-for 'script'; trusted-types 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toContain('<form id="token-form"');
      const again = await request(t.app).get(url).set('If-None-Match', res.headers.etag);
      expect(again.status).toBe(304);
    }
  });

  it('names no external URL: every src/href is this origin, and the page has no inline script or style', async () => {
    const html = (await request(t.app).get('/-/dashboard')).text;
    const refs = [...html.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(4);
    for (const ref of refs) expect(ref).toMatch(/^(\/(?!\/)|#)/);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    const css = (await request(t.app).get('/-/dashboard/dashboard.css')).text;
    expect(css).not.toMatch(/url\(|@import/);
    // The script's code (comments aside) reaches only POST /graphql and this host's WebSocket.
    const code = SCRIPT.split('\n')
      .filter((l) => !l.trim().startsWith('//'))
      .join('\n');
    expect(code).not.toMatch(/https?:\/\/|wss?:\/\/[^$]/);
    expect([...code.matchAll(/fetch\(([^,]*),/g)].map((m) => m[1])).toEqual(["'/graphql'"]);
    expect(code).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });

  it('serves the script and stylesheet at versioned URLs, immutable; other versions revalidate', async () => {
    const html = (await request(t.app).get('/-/dashboard')).text;
    const js = /src="(\/-\/dashboard\/dashboard\.js\?v=([0-9a-f]{12}))"/.exec(html);
    const css = /href="(\/-\/dashboard\/dashboard\.css\?v=([0-9a-f]{12}))"/.exec(html);
    expect(js && css).toBeTruthy();
    const script = await request(t.app).get(js![1]);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.text).toBe(SCRIPT);
    const style = await request(t.app).get(css![1]);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await request(t.app).get('/-/dashboard/dashboard.js?v=000000000000')).headers['cache-control']).toBe(
      'no-cache',
    );
    expect((await request(t.app).get('/-/dashboard/other.js')).status).toBe(404);
    // Each file has its own bounded metrics label (the version query string is not part of it).
    const metrics = (await request(t.app).get('/-/metrics')).text;
    for (const route of ['GET /-/dashboard', 'GET /-/dashboard/dashboard.js', 'GET /-/dashboard/dashboard.css'])
      expect(metrics).toContain(`route="${route}"`);
  });
});

describe("the dashboard's GraphQL documents", () => {
  const { DOCUMENTS, VARIABLES } = documentsBlock();
  let runnerId = 0;
  let acmeId = 0;
  let platformId = 0;
  let alice = { id: 0, token: '' };

  beforeAll(async () => {
    const acme = await createGroup(t, { path: 'acme', name: 'Acme', visibility: 'public' });
    const platform = await createGroup(t, { path: 'platform', name: 'Platform', visibility: 'public', parent: acme });
    [acmeId, platformId] = [acme.id, platform.id];
    const project = await createProject(t, { namespace: platform, path: 'api', visibility: 'public' });
    alice = await createUser(t, { username: 'alice' });
    await addGroupMember(t, acme, alice, 30);
    const runner = await createRunner(t, { shared: true, description: 'docker-1', contactedAt: new Date() });
    runnerId = runner.id;
    for (let i = 0; i < 3; i += 1) await createJob(t, { runner, project, name: `job-${i}` });
    await api(t, ROOT_TOKEN).post('/api/v4/broadcast_messages').send({ message: 'Maintenance' }).expect(201);
    await api(t, ROOT_TOKEN).post('/api/v4/features/beta_ui').send({ value: 'true' }).expect(201);
  });

  it('are valid against schema.graphql (the screens, their list pages, the next jobs page and the subscriptions)', () => {
    const schema = buildSchema(fs.readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));
    expect(Object.keys(DOCUMENTS).sort()).toEqual([
      'auditEventAdded',
      'broadcastMessagesChanged',
      'featureFlagChanged',
      'group',
      'groupChanged',
      'groupMembers',
      'groupProjects',
      'groupSubgroups',
      'groups',
      'overview',
      'runner',
      'runnerChanged',
      'runnerJobs',
      'runners',
    ]);
    for (const [name, doc] of Object.entries(DOCUMENTS))
      expect([name, validate(schema, parse(doc)).map((e) => e.message)]).toEqual([name, []]);
  });

  it('each screen is one request that answers without error for an administrator', async () => {
    const overview = await api(t, ROOT_TOKEN).graphql(DOCUMENTS.overview);
    expect(overview.status).toBe(200);
    expect(overview.body.errors).toBeUndefined();
    const d = overview.body.data;
    expect(d.currentUser).toEqual({ username: 'root', isAdmin: true });
    expect(d.groups.nodes).toEqual([
      {
        id: acmeId,
        parentId: null,
        fullPath: 'acme',
        name: 'Acme',
        projectsCount: 0,
        descendantGroupsCount: 1,
        groupMembersCount: 1,
        subgroups: {
          count: 1,
          nodes: [
            {
              id: platformId,
              parentId: acmeId,
              fullPath: 'acme/platform',
              name: 'Platform',
              projectsCount: 1,
              descendantGroupsCount: 0,
              groupMembersCount: 0,
            },
          ],
        },
      },
    ]);
    expect(d.runners.nodes).toEqual([
      expect.objectContaining({
        description: 'docker-1',
        status: 'ONLINE',
        paused: false,
        jobs: { nodes: [expect.objectContaining({ name: 'job-2' })] },
      }),
    ]);
    expect(d.broadcastMessages.nodes.map((m: { message: string }) => m.message)).toEqual(['Maintenance']);
    expect(d.features).toEqual({
      count: 1,
      nodes: [{ name: 'beta_ui', state: 'ON', gates: [{ key: 'boolean', value: true }] }],
    });
    // The audit log: newest first, the flag set last.
    expect(d.auditEvents.nodes[0]).toEqual(
      expect.objectContaining({
        entityType: 'Gitlab::Audit::InstanceScope',
        details: expect.objectContaining({
          authorName: expect.any(String),
          targetType: 'Feature',
          targetDetails: 'beta_ui',
        }),
      }),
    );
    // Totals: the counts REST's lists give as X-Total.
    const xTotal = async (url: string) => Number((await api(t, ROOT_TOKEN).get(url).expect(200)).headers['x-total']);
    expect({
      users: d.users.count,
      projects: d.projects.count,
      groups: d.allGroups.count,
      runners: d.runners.count,
    }).toEqual({
      users: await xTotal('/api/v4/users'),
      projects: await xTotal('/api/v4/projects'),
      groups: await xTotal('/api/v4/groups?all_available=true'),
      runners: await xTotal('/api/v4/runners/all'),
    });
    expect(d.allGroups.count).toBe(2);

    const group = await api(t, ROOT_TOKEN).graphql(DOCUMENTS.group, VARIABLES.group('acme/platform')!);
    expect(group.body.errors).toBeUndefined();
    expect(group.body.data.group).toEqual(
      expect.objectContaining({
        fullPath: 'acme/platform',
        parent: { fullPath: 'acme', name: 'Acme' },
        projectsCount: 1,
      }),
    );
    expect(group.body.data.group.projects).toEqual({
      count: 1,
      pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
      nodes: [expect.objectContaining({ pathWithNamespace: 'acme/platform/api', visibility: 'PUBLIC' })],
    });
    // Members: the inherited membership of acme, with its source; alice's Developer role.
    expect(group.body.data.group.groupMembers.nodes).toEqual([
      expect.objectContaining({
        user: { username: 'alice', name: expect.any(String) },
        accessLevel: { stringValue: 'DEVELOPER', integerValue: 30 },
        group: { fullPath: 'acme' },
      }),
    ]);
    expect(VARIABLES.groupListAfter('acme/platform', group.body.data.group.projects)).toBeNull();

    const runner = await api(t, ROOT_TOKEN).graphql(DOCUMENTS.runner, VARIABLES.runner(String(runnerId))!);
    expect(runner.body.errors).toBeUndefined();
    const jobs = runner.body.data.runner.jobs;
    expect(jobs.nodes.map((j: { name: string }) => j.name)).toEqual(['job-2', 'job-1', 'job-0']);
    expect(jobs).toEqual(
      expect.objectContaining({ count: 3, pageInfo: expect.objectContaining({ hasNextPage: false }) }),
    );
    // The next page's variables come from the page just read (its endCursor); none after the last.
    expect(VARIABLES.runnerJobsAfter(String(runnerId), jobs)).toBeNull();
    const short = await api(t, ROOT_TOKEN).graphql(DOCUMENTS.runner, {
      ...VARIABLES.runner(String(runnerId))!,
      perPage: 2,
    });
    expect(short.body.data.runner.jobs.nodes.map((j: { name: string }) => j.name)).toEqual(['job-2', 'job-1']);
    const next = VARIABLES.runnerJobsAfter(String(runnerId), { ...short.body.data.runner.jobs })!;
    const more = await api(t, ROOT_TOKEN).graphql(DOCUMENTS.runnerJobs, next);
    expect(more.body.errors).toBeUndefined();
    expect(more.body.data.runner.jobs.nodes.map((j: { name: string }) => j.name)).toEqual(['job-0']);
    expect(more.body.data.runner.jobs.pageInfo.hasNextPage).toBe(false);
  });

  it('the lists page with cursors: the 21st top-level group, the 31st runner, the 21st project and member of a group', async () => {
    const root = api(t, ROOT_TOKEN);
    const big = await createGroup(t, { path: 'zz-big', name: 'zz big', visibility: 'public' });
    for (let i = 0; i < 21; i += 1) {
      await createGroup(t, { path: `page-${String(i).padStart(2, '0')}`, name: `page ${String(i).padStart(2, '0')}` });
      await createProject(t, { namespace: big, path: `p-${i}` });
      await addGroupMember(t, big, await createUser(t, { username: `member-${i}` }), 10);
    }
    for (let i = 0; i < 30; i += 1) await createRunner(t, { shared: true, description: `fleet-${i}` });
    try {
      const first = (await root.graphql(DOCUMENTS.overview)).body.data;
      const names = (list: { nodes: { name: string }[] }) => list.nodes.map((g) => g.name);
      expect(first.groups.count).toBe(23);
      expect(first.groups.nodes).toHaveLength(20);
      const page2 = await root.graphql(DOCUMENTS.groups, VARIABLES.nextPage(first.groups)!);
      expect(page2.body.errors).toBeUndefined();
      expect(names(page2.body.data.groups)).toEqual(['page 19', 'page 20', 'zz big']);
      expect(VARIABLES.nextPage(page2.body.data.groups)).toBeNull();
      // "Previous" to the first page: no cursor.
      const again = await root.graphql(DOCUMENTS.groups, { after: null });
      expect(names(again.body.data.groups)).toEqual(names(first.groups));

      expect(first.runners.nodes).toHaveLength(30);
      const runners2 = await root.graphql(DOCUMENTS.runners, VARIABLES.nextPage(first.runners)!);
      expect(runners2.body.data.runners.nodes.map((r: { description: string }) => r.description)).toEqual(['fleet-29']);

      const group = (await root.graphql(DOCUMENTS.group, VARIABLES.group('zz-big')!)).body.data.group;
      expect([group.projects.nodes.length, group.projects.count]).toEqual([20, 21]);
      expect([group.groupMembers.nodes.length, group.groupMembers.count]).toEqual([20, 21]);
      const projects2 = await root.graphql(
        DOCUMENTS.groupProjects,
        VARIABLES.groupListAfter('zz-big', group.projects)!,
      );
      expect(projects2.body.data.group.projects.nodes.map((p: { name: string }) => p.name)).toHaveLength(1);
      const members2 = await root.graphql(
        DOCUMENTS.groupMembers,
        VARIABLES.groupListAfter('zz-big', group.groupMembers)!,
      );
      expect(members2.body.data.group.groupMembers.nodes).toHaveLength(1);
    } finally {
      await root.delete(`/api/v4/groups/${big.id}`);
      for (let i = 0; i < 21; i += 1) await root.delete(`/api/v4/groups/page-${String(i).padStart(2, '0')}`);
    }
  });

  it("each screen's document stays well within the depth and complexity limits", async () => {
    const costs: Record<string, unknown> = {};
    const first = await api(t, ROOT_TOKEN).graphql(DOCUMENTS.runner, {
      ...VARIABLES.runner(String(runnerId))!,
      perPage: 1,
    });
    const short2 = first.body.data.runner.jobs.pageInfo.endCursor as string;
    // A page request needs a cursor: the end of each first page (the page after it may be empty).
    const overview = (await api(t, ROOT_TOKEN).graphql(DOCUMENTS.overview)).body.data;
    const acme = (await api(t, ROOT_TOKEN).graphql(DOCUMENTS.group, VARIABLES.group('acme')!)).body.data.group;
    const platform = (await api(t, ROOT_TOKEN).graphql(DOCUMENTS.group, VARIABLES.group('acme/platform')!)).body.data
      .group;
    const end = (list: { pageInfo: { endCursor: string } }) => list.pageInfo.endCursor;
    for (const [name, variables] of [
      ['overview', {}],
      ['groups', { after: end(overview.groups) }],
      ['runners', { after: end(overview.runners) }],
      ['group', VARIABLES.group('acme')],
      ['groupSubgroups', { fullPath: 'acme', after: end(acme.subgroups) }],
      ['groupProjects', { fullPath: 'acme/platform', after: end(platform.projects) }],
      ['groupMembers', { fullPath: 'acme', after: end(acme.groupMembers) }],
      ['runner', VARIABLES.runner(String(runnerId))],
      ['runnerJobs', { id: runnerId, perPage: 20, after: short2 }],
    ] as const) {
      const doc = DOCUMENTS[name].replace('{', '{ queryComplexity { score limit depth depthLimit }');
      const res = await api(t, ROOT_TOKEN).graphql(doc, variables as Record<string, unknown>);
      expect([name, res.body.errors]).toEqual([name, undefined]);
      costs[name] = res.body.data.queryComplexity;
    }
    // docs/dashboard.md quotes them.
    const scores = Object.fromEntries(Object.entries(costs).map(([k, v]) => [k, (v as { score: number }).score]));
    console.log(`dashboard document costs: ${JSON.stringify(costs)}`);
    expect(scores.overview).toBeLessThan(20000);
    for (const name of [
      'group',
      'groups',
      'runners',
      'runner',
      'runnerJobs',
      'groupSubgroups',
      'groupProjects',
      'groupMembers',
    ])
      expect([name, scores[name] < 10000]).toEqual([name, true]);
    for (const v of Object.values(costs)) expect((v as { depth: number }).depth).toBeLessThanOrEqual(6);
  });

  it('the overview answers a non-admin and an anonymous caller what they may see, the rest null with an access error', async () => {
    const codes = (body: { errors?: { path: string[]; extensions: { code: string } }[] }) =>
      Object.fromEntries((body.errors ?? []).map((e) => [e.path[0], e.extensions.code]));
    const hers = await api(t, alice.token).graphql(DOCUMENTS.overview);
    expect(hers.status).toBe(200);
    expect(codes(hers.body)).toEqual({
      runners: 'FORBIDDEN',
      auditEvents: 'FORBIDDEN',
      broadcastMessages: 'FORBIDDEN',
      features: 'FORBIDDEN',
    });
    expect(hers.body.data.groups.nodes.map((g: { fullPath: string }) => g.fullPath)).toEqual(['acme']);
    expect(hers.body.data.runners).toBeNull();
    const anonymous = await api(t).graphql(DOCUMENTS.overview);
    expect(anonymous.status).toBe(200);
    expect(codes(anonymous.body)).toEqual({
      runners: 'UNAUTHENTICATED',
      auditEvents: 'UNAUTHENTICATED',
      broadcastMessages: 'UNAUTHENTICATED',
      features: 'UNAUTHENTICATED',
    });
    expect(anonymous.body.data.currentUser).toBeNull();
    expect(anonymous.body.data.groups.nodes.map((g: { fullPath: string }) => g.fullPath)).toEqual(['acme']);
  });

  it('docs/dashboard.md shows each document exactly as the page sends it', () => {
    const docs = fs.readFileSync(path.join(ROOT, 'docs/dashboard.md'), 'utf8');
    const blocks = [...docs.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1].trim());
    for (const [name, doc] of Object.entries(DOCUMENTS))
      expect([name, blocks.includes(doc.trim())]).toEqual([name, true]);
  });
});
