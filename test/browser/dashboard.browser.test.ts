import type { Page } from 'playwright-core';
import { describeBrowser, useBrowser } from '../support/browser';
import { addGroupMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN } from '../support/test-app';
import { createJob, createRunner } from '../runners/runner-factories';

/**
 * The reference dashboard (/-/dashboard, docs/dashboard.md) in a real headless
 * Chromium, offline (any request to another host is aborted and recorded), under its CSP (every
 * violation recorded): each screen is one POST /graphql, the runner's jobs load on scroll, changes
 * made through REST appear on the open page without a reload, hostile names stay text.
 */

const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_DESCRIPTION = '<script>window.__pwned=2</script><b>bold</b>';
const JOBS = 65; // four pages of 20

describeBrowser('Dashboard browser test')('the dashboard in headless Chromium', () => {
  const env = useBrowser('zeta', { subscriptions: true });
  let busy = { id: 0 };
  let paused = { id: 0 };
  let alice = { id: 0, token: '' };
  let newestJob = 0;

  beforeAll(async () => {
    const t = env.t;
    const acme = await createGroup(t, { path: 'acme', name: 'Acme Corp', visibility: 'public' });
    const platform = await createGroup(t, { path: 'platform', name: 'Platform', visibility: 'public', parent: acme });
    const web = await createGroup(t, { path: 'web', name: 'Web', visibility: 'public', parent: acme });
    await createProject(t, { namespace: acme, path: 'handbook', name: 'Handbook', visibility: 'public' });
    const api1 = await createProject(t, { namespace: platform, path: 'api', name: 'API', visibility: 'public' });
    await createProject(t, { namespace: platform, path: 'worker', name: 'Worker', visibility: 'private' });
    await createProject(t, { namespace: web, path: 'site', name: 'Site', visibility: 'public' });
    await createGroup(t, {
      path: 'hostile',
      name: HOSTILE_NAME,
      description: HOSTILE_DESCRIPTION,
      visibility: 'public',
    });
    alice = await createUser(t, { username: 'alice' });
    await addGroupMember(t, acme, alice, 30);
    busy = await createRunner(t, { shared: true, description: 'docker-busy', contactedAt: new Date() });
    paused = await createRunner(t, {
      shared: true,
      description: 'shell-paused',
      active: false,
      contactedAt: new Date(Date.now() - 2 * 3600 * 1000),
    });
    await createRunner(t, { shared: true, description: 'never-seen' });
    const base = Date.parse('2026-11-01T00:00:00Z');
    for (let i = 0; i < JOBS; i += 1)
      newestJob = (
        await createJob(t, { runner: busy, project: api1, name: `job-${i}`, at: new Date(base + i * 60000) })
      ).id;
    await api(t, ROOT_TOKEN)
      .post('/api/v4/broadcast_messages')
      .send({ message: 'Planned maintenance tonight' })
      .expect(201);
    await api(t, ROOT_TOKEN).post('/api/v4/features/beta_ui').send({ value: 'true' }).expect(201);
  }, 60000);

  interface Watched {
    page: Page;
    /** Operation names of the POST /graphql requests, in order. */
    queries: string[];
    /** Requests to any other host (aborted), CSP violations and page errors. */
    problems: string[];
  }

  async function open(): Promise<Watched> {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 720 } });
    const w: Watched = { page, queries: [], problems: [] };
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(env.base)) return route.continue();
      w.problems.push(`external request ${url}`);
      return route.abort();
    });
    page.on('request', (r) => {
      if (r.url() === `${env.base}/graphql` && r.method() === 'POST')
        w.queries.push(/^\s*(?:query|mutation)\s+(\w+)/.exec(JSON.parse(r.postData() ?? '{}').query ?? '')?.[1] ?? '?');
    });
    await page.exposeFunction('__cspViolation', (v: string) => w.problems.push(`CSP ${v}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __cspViolation: (v: string) => void }).__cspViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });
    page.on('pageerror', (e) => w.problems.push(`page error ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && w.problems.push(`console ${m.text()}`));
    return w;
  }

  const ready = (page: Page, screen: string) =>
    page.waitForFunction((s) => document.body.dataset.screen === s && document.body.dataset.state === 'ready', screen, {
      timeout: 15000,
    });

  /** Opens the overview anonymously, then enters the token in the form as a user would. */
  async function signIn(w: Watched, token: string, who: string): Promise<void> {
    await w.page.goto(`${env.base}/-/dashboard`, { waitUntil: 'load' });
    await ready(w.page, 'overview');
    await w.page.fill('#token-input', token);
    await w.page.click('#token-form button[type="submit"]');
    await w.page.waitForFunction((text) => document.getElementById('who')?.textContent === text, who, {
      timeout: 15000,
    });
    await ready(w.page, 'overview');
  }

  const text = (page: Page, selector: string) => page.locator(selector).first().innerText();
  const settle = (page: Page) => page.waitForTimeout(300);

  it('the overview, with an admin token, shows groups with counts, runner statuses and latest jobs, the active message and the flags — one request', async () => {
    const w = await open();
    await signIn(w, ROOT_TOKEN, '@root (admin)');
    await settle(w.page);
    // The anonymous load, then the load with the token: one query each.
    expect(w.queries).toEqual(['DashboardOverview', 'DashboardOverview']);
    const acme = await w.page.locator('tr[data-group="acme"] td').allInnerTexts();
    expect(acme).toEqual(['Acme Corp acme', '1', '2', '1']);
    expect(await w.page.locator('tr[data-group="acme/platform"] td').allInnerTexts()).toEqual([
      'Platform acme/platform',
      '2',
      '0',
      '0',
    ]);
    expect(await w.page.locator('tr[data-group="acme/web"].child').count()).toBe(1);
    expect(await text(w.page, `tr[data-runner="${busy.id}"] td.status`)).toBe('ONLINE');
    expect(await text(w.page, `tr[data-runner="${busy.id}"] td:nth-child(4)`)).toMatch(
      new RegExp(`^SUCCESS job-${JOBS - 1} acme/platform/api`),
    );
    expect(await text(w.page, `tr[data-runner="${paused.id}"] td.status`)).toMatch(/^(OFFLINE|STALE) paused$/);
    expect(await w.page.locator('#runners h2').innerText()).toBe('Runner fleet');
    expect(await w.page.locator('#runners-table tbody tr').count()).toBe(3);
    expect(await text(w.page, '#broadcast-list')).toContain('Planned maintenance tonight');
    expect(await w.page.locator('#flags-table tbody tr').allInnerTexts()).toEqual(['beta_ui\tON\tboolean=true']);
    // Totals: what REST's lists count (X-Total).
    const root = api(env.t, ROOT_TOKEN);
    const xTotal = async (url: string) =>
      Number((await root.get(url).expect(200)).headers['x-total']).toLocaleString('en');
    expect({
      users: await text(w.page, '[data-total="users"] .total-value'),
      projects: await text(w.page, '[data-total="projects"] .total-value'),
      groups: await text(w.page, '[data-total="groups"] .total-value'),
      runners: await text(w.page, '[data-total="runners"] .total-value'),
    }).toEqual({
      users: await xTotal('/api/v4/users'),
      projects: await xTotal('/api/v4/projects'),
      groups: await xTotal('/api/v4/groups?all_available=true'),
      runners: await xTotal('/api/v4/runners/all'),
    });
    expect(await text(w.page, '[data-total="groups"] .total-value')).toBe('5');
    // The audit log: the latest events, newest first (the flag set last in the seed).
    expect(await w.page.locator('#audit-table tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/\tAdministrator\tchanged feature_flag\.boolean from false to true\tFeature beta_ui /),
      expect.stringMatching(/\tAdministrator\tadded broadcast_message\tBroadcastMessage Planned maintenance tonight /),
    ]);
    expect(w.problems).toEqual([]);
    await w.page.screenshot({ path: '/tmp/dashboard-overview.png', fullPage: true }).catch(() => undefined);
    await w.page.close();
  }, 60000);

  it('a group page shows its projects and subgroups in one request; hostile names and descriptions stay text', async () => {
    const w = await open();
    await signIn(w, ROOT_TOKEN, '@root (admin)');
    w.queries.length = 0;
    await w.page.click('tr[data-group="acme/platform"] a');
    await ready(w.page, 'group');
    await settle(w.page);
    expect(w.queries).toEqual(['DashboardGroup']);
    expect(await w.page.locator('#group h1').innerText()).toBe('Acme Corp / Platform');
    expect(
      await w.page
        .locator('#projects-table tbody tr')
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.project)),
    ).toEqual(['acme/platform/api', 'acme/platform/worker']);
    expect(await text(w.page, '#group-projects-count')).toBe('2');
    // Members, direct and inherited: alice is a Developer of acme.
    expect(await w.page.locator('#members-table tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^\S.* @alice\tdeveloper \(30\)\tinherited from acme\t—$/),
    ]);
    expect(await text(w.page, '#members-note')).toBe('1 of 1 members (direct and inherited).');
    expect(await w.page.locator('#projects-more').isHidden()).toBe(true);

    // The hostile group, on the overview and on its own page: the literal text, nothing run or loaded.
    await w.page.goto(`${env.base}/-/dashboard#/`);
    await ready(w.page, 'overview');
    expect(await text(w.page, 'tr[data-group="hostile"] a')).toBe(HOSTILE_NAME);
    await w.page.click('tr[data-group="hostile"] a');
    await ready(w.page, 'group');
    expect(await w.page.locator('#group h1').innerText()).toBe(HOSTILE_NAME);
    expect(await text(w.page, '#group-description')).toBe(HOSTILE_DESCRIPTION);
    expect(
      await w.page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        img: document.querySelectorAll('main img, main script, main b').length,
      })),
    ).toEqual({ pwned: undefined, img: 0 });
    expect(w.problems).toEqual([]);
    await w.page.close();
  }, 60000);

  it('the runner page loads in one request and more jobs as the list scrolls, newest first, until the last', async () => {
    const w = await open();
    await signIn(w, ROOT_TOKEN, '@root (admin)');
    w.queries.length = 0;
    await w.page.click(`tr[data-runner="${busy.id}"] a`);
    await ready(w.page, 'runner');
    await settle(w.page);
    expect(w.queries).toEqual(['DashboardRunner']);
    const rows = () => w.page.locator('#jobs tbody tr').count();
    expect(await rows()).toBe(20);
    expect(await w.page.locator('#jobs tbody tr').first().getAttribute('data-job')).toBe(String(newestJob));
    for (const expected of [40, 60, 65]) {
      await w.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await w.page.waitForFunction((n) => document.body.dataset.jobs === String(n), expected, { timeout: 15000 });
    }
    await w.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await settle(w.page);
    expect(await rows()).toBe(JOBS);
    expect(await text(w.page, '#jobs-note')).toBe(`All ${JOBS} jobs.`);
    await w.page.screenshot({ path: '/tmp/dashboard-runner.png' }).catch(() => undefined);
    expect(w.queries).toEqual(['DashboardRunner', 'DashboardRunnerJobs', 'DashboardRunnerJobs', 'DashboardRunnerJobs']);
    const ids = await w.page
      .locator('#jobs tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Number((tr as HTMLElement).dataset.job)));
    expect(new Set(ids).size).toBe(JOBS);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(w.problems).toEqual([]);
    await w.page.close();
  }, 60000);

  it('changes made through REST appear on the open overview and runner page without a reload', async () => {
    const w = await open();
    const sockets: string[] = [];
    w.page.on('websocket', (ws) => sockets.push(ws.url()));
    const target = await createRunner(env.t, { shared: true, description: 'to-pause', contactedAt: new Date() });
    await signIn(w, ROOT_TOKEN, '@root (admin)');
    await w.page.waitForFunction(
      () => document.body.dataset.live === 'connected' && document.body.dataset.subscriptions === '5',
      undefined,
      { timeout: 15000 },
    );
    await w.page.waitForTimeout(700); // the server's LISTEN is up once it handled the subscribe messages
    await w.page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    w.queries.length = 0;
    const root = api(env.t, ROOT_TOKEN);
    await root.put(`/api/v4/runners/${target.id}`).send({ active: false }).expect(200);
    await root.post('/api/v4/broadcast_messages').send({ message: 'Deploy freeze starts now' }).expect(201);
    await root.post('/api/v4/features/live_flag').send({ value: 'true' }).expect(201);
    await w.page.waitForSelector(`tr[data-runner="${target.id}"] .paused`, { timeout: 5000 });
    await w.page.waitForFunction(
      () => document.getElementById('broadcast-list')?.textContent?.includes('Deploy freeze starts now'),
      undefined,
      { timeout: 5000 },
    );
    await w.page.waitForSelector('tr[data-flag="live_flag"]', { timeout: 5000 });
    expect(await text(w.page, 'tr[data-flag="live_flag"]')).toBe('live_flag\tON\tboolean=true');
    // A group created over REST appears at its place (by name), its subgroup under it; deleted, both go.
    const made = await root.post('/api/v4/groups').send({ name: 'Live group', path: 'live-group' }).expect(201);
    await w.page.waitForSelector('tr[data-group="live-group"]', { timeout: 5000 });
    const sub = await root
      .post('/api/v4/groups')
      .send({ name: 'Live sub', path: 'live-sub', parent_id: made.body.id })
      .expect(201);
    await w.page.waitForSelector('tr[data-group="live-group/live-sub"].child', { timeout: 5000 });
    const order = () =>
      w.page.locator('#groups-table tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.group));
    expect(await order()).toEqual([
      'hostile',
      'acme',
      'acme/platform',
      'acme/web',
      'live-group',
      'live-group/live-sub',
      'zeta',
    ]);
    await root.put(`/api/v4/groups/${sub.body.id}`).send({ name: 'Live sub renamed' }).expect(200);
    await w.page.waitForFunction(
      () => document.querySelector('tr[data-group="live-group/live-sub"] a')?.textContent === 'Live sub renamed',
      undefined,
      { timeout: 5000 },
    );
    // The audit log lists the new events on top, live.
    await w.page.waitForFunction(
      () =>
        document
          .querySelector('#audit-table tbody tr')
          ?.textContent?.includes('changed name from Live sub to Live sub renamed'),
      undefined,
      { timeout: 5000 },
    );
    expect(await w.page.locator('#audit-table tbody tr', { hasText: 'added group' }).first().innerText()).toContain(
      'Group live-group',
    );
    await root.delete(`/api/v4/groups/${made.body.id}`).expect((r) => expect([202, 204]).toContain(r.status));
    await w.page.waitForFunction(() => !document.querySelector('tr[data-group^="live-group"]'), undefined, {
      timeout: 5000,
    });
    expect(await w.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(w.queries).toEqual([]);

    // The runner page follows its runner.
    await w.page.click(`tr[data-runner="${target.id}"] a`);
    await ready(w.page, 'runner');
    await w.page.waitForFunction(() => document.body.dataset.subscriptions === '1');
    await w.page.waitForTimeout(700);
    await root.put(`/api/v4/runners/${target.id}`).send({ description: 'renamed live', active: true }).expect(200);
    await w.page.waitForFunction(
      () => document.getElementById('runner-description')?.textContent === 'renamed live',
      undefined,
      { timeout: 5000 },
    );
    expect(await text(w.page, '#runner-status')).toBe('ONLINE');
    expect(w.queries).toEqual(['DashboardRunner']);
    // One WebSocket for the whole visit, to this server's /graphql.
    expect(sockets).toEqual([`${env.base.replace('http:', 'ws:')}/graphql`]);
    expect(w.problems).toEqual([]);
    await w.page.close();
  }, 60000);

  it('a dropped socket reconnects with backoff, reloads the screen once and stays live', async () => {
    const w = await open();
    // Every WebSocket of the page goes through this route, which can cut the connection.
    const routes: { close(): Promise<void> }[] = [];
    await w.page.routeWebSocket(/\/graphql$/, (ws) => {
      const server = ws.connectToServer();
      routes.push({
        close: async () => {
          await ws.close({ code: 1011, reason: 'cut by the test' });
          await server.close();
        },
      });
    });
    await signIn(w, ROOT_TOKEN, '@root (admin)');
    await w.page.waitForFunction(
      () => document.body.dataset.live === 'connected' && document.body.dataset.subscriptions === '5',
      undefined,
      { timeout: 15000 },
    );
    const states: string[] = [];
    await w.page.exposeFunction('__liveState', (s: string) => states.push(s));
    await w.page.evaluate(() =>
      new MutationObserver(() =>
        (window as unknown as { __liveState: (s: string) => void }).__liveState(document.body.dataset.live ?? ''),
      ).observe(document.body, { attributes: true, attributeFilter: ['data-live'] }),
    );
    w.queries.length = 0;
    await routes[0].close();
    await w.page.waitForFunction(
      () =>
        document.body.dataset.live === 'connected' &&
        document.body.dataset.state === 'ready' &&
        document.body.dataset.subscriptions === '5',
      undefined,
      { timeout: 15000 },
    );
    await w.page.waitForFunction(() => document.body.dataset.live === 'connected');
    expect(routes).toHaveLength(2);
    expect(states.slice(0, 2)).toEqual(['reconnecting', 'connected']);
    // Events may have been missed while cut off: the screen's one query ran again.
    expect(w.queries).toEqual(['DashboardOverview']);
    await w.page.waitForTimeout(700);
    await api(env.t, ROOT_TOKEN).post('/api/v4/features/after_reconnect').send({ value: 'true' }).expect(201);
    await w.page.waitForSelector('tr[data-flag="after_reconnect"]', { timeout: 5000 });
    expect(w.problems).toEqual([]);
    await w.page.close();
  }, 60000);

  it('a subscription the server ends with an error is started again: the screen reloads once and stays live', async () => {
    const w = await open();
    // Messages pass through this route; the test can speak as the server to the page.
    const subscribed: { id: string; query: string }[] = [];
    let toPage: ((m: string) => void) | undefined;
    await w.page.routeWebSocket(/\/graphql$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => {
        const msg = JSON.parse(String(m)) as { id?: string; type: string; payload?: { query: string } };
        if (msg.type === 'subscribe') subscribed.push({ id: msg.id!, query: msg.payload!.query });
        server.send(m);
      });
      server.onMessage((m) => ws.send(m));
      toPage = (m) => ws.send(m);
    });
    await signIn(w, ROOT_TOKEN, '@root (admin)');
    await w.page.waitForFunction(
      () => document.body.dataset.live === 'connected' && document.body.dataset.subscriptions === '5',
      undefined,
      { timeout: 15000 },
    );
    await w.page.waitForTimeout(300);
    const flags = subscribed.find((s) => s.query.startsWith('subscription DashboardFeatureFlagChanged'))!;
    w.queries.length = 0;
    toPage!(
      JSON.stringify({
        id: flags.id,
        type: 'error',
        payload: [
          {
            message: 'subscriber more than 100 events behind; subscribe again',
            extensions: { code: 'SERVICE_UNAVAILABLE' },
          },
        ],
      }),
    );
    await w.page.waitForFunction(
      () => document.getElementById('error')?.textContent?.includes('subscribe again'),
      undefined,
      { timeout: 5000 },
    );
    // After the backoff (1 s and jitter): the overview's one query again, then its five subscriptions.
    for (const t0 = Date.now(); subscribed.length < 10 && Date.now() - t0 < 15000;) await w.page.waitForTimeout(100);
    await w.page.waitForTimeout(300);
    expect(w.queries).toEqual(['DashboardOverview']);
    expect(subscribed).toHaveLength(10);
    expect(subscribed.filter((s) => s.query.startsWith('subscription DashboardFeatureFlagChanged'))).toHaveLength(2);
    await w.page.waitForTimeout(500);
    await api(env.t, ROOT_TOKEN).post('/api/v4/features/after_error').send({ value: 'true' }).expect(201);
    await w.page.waitForSelector('tr[data-flag="after_error"]', { timeout: 5000 });
    expect(w.problems).toEqual([]);
    await w.page.close();
  }, 60000);

  it('without a token shows what anonymous may see and opens no socket; a non-admin sees hints; the token lives in sessionStorage until forgotten', async () => {
    const w = await open();
    const sockets: string[] = [];
    w.page.on('websocket', (ws) => sockets.push(ws.url()));
    await w.page.goto(`${env.base}/-/dashboard`, { waitUntil: 'load' });
    await ready(w.page, 'overview');
    await settle(w.page);
    expect(await text(w.page, '#who')).toBe('anonymous');
    expect(
      await w.page
        .locator('#groups-table tbody tr')
        .evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.group)),
    ).toEqual(['hostile', 'acme', 'acme/platform', 'acme/web', 'zeta']); // by name: '<img…' sorts first
    expect(await text(w.page, '#runners .hint')).toBe('Runners: sign in with a token.');
    expect(await text(w.page, '#flags .hint')).toBe('Feature flags: sign in with a token.');
    expect(await text(w.page, '#error')).toBe('');
    expect(sockets).toEqual([]);

    // A token the service refuses (every field then answers UNAUTHENTICATED): said so, no data, no socket.
    await w.page.fill('#token-input', 'not-a-token');
    await w.page.click('#token-form button[type="submit"]');
    await w.page.waitForFunction(
      () => document.getElementById('who')?.textContent === 'token not accepted',
      undefined,
      { timeout: 15000 },
    );
    expect(await text(w.page, '#error')).toMatch(/^The token was not accepted/);
    expect(await w.page.locator('#groups-table').count()).toBe(0);
    expect(await text(w.page, '#groups .hint')).toBe('Groups: sign in with a token.');
    expect(sockets).toEqual([]);

    await signIn(w, alice.token, '@alice');
    expect(await text(w.page, '#flags .hint')).toBe('Feature flags: administrators only.');
    expect(await text(w.page, '#broadcasts .hint')).toBe('Broadcast messages: administrators only.');
    expect(await text(w.page, '#runners .hint')).toBe('Runners: administrators only.');
    expect(await text(w.page, '#audit .hint')).toBe('Audit log: administrators only.');
    expect(await text(w.page, '[data-total="runners"] .total-value')).toBe('—');
    // Her one subscription: groups (the others are for administrators).
    await w.page.waitForFunction(() => document.body.dataset.subscriptions === '1', undefined, { timeout: 15000 });
    const stored = await w.page.evaluate(() => ({
      session: sessionStorage.getItem('gitlab-admin-dashboard.token'),
      local: localStorage.length,
      cookie: document.cookie,
    }));
    expect(stored).toEqual({ session: alice.token, local: 0, cookie: '' });
    // A reload in the same tab keeps the token (sessionStorage); "Forget token" drops it.
    await w.page.reload({ waitUntil: 'load' });
    await w.page.waitForFunction(() => document.getElementById('who')?.textContent === '@alice', undefined, {
      timeout: 15000,
    });
    await w.page.click('#forget-token');
    await w.page.waitForFunction(() => document.getElementById('who')?.textContent === 'anonymous', undefined, {
      timeout: 15000,
    });
    expect(await w.page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await w.page.locator('#forget-token').isHidden()).toBe(true);
    expect(w.problems).toEqual([]);
    await w.page.close();
  }, 60000);
  it('pages with cursors: "Next" shows the 21st group and "Previous" the first page again; "More" appends the next runners', async () => {
    // Private: the anonymous view above is unchanged by them. By name: '<img…', 'Acme Corp', 'Page 00' … 'Page 19', 'zeta'.
    for (let i = 0; i < 20; i += 1)
      await createGroup(env.t, {
        path: `page-${String(i).padStart(2, '0')}`,
        name: `Page ${String(i).padStart(2, '0')}`,
      });
    for (let i = 0; i < 28; i += 1) await createRunner(env.t, { shared: true, description: `fleet-${i}` });
    const w = await open();
    await signIn(w, ROOT_TOKEN, '@root (admin)');
    const tops = () =>
      w.page
        .locator('#groups-table tbody tr:not(.child)')
        .evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.group));
    const first = await tops();
    expect(first).toHaveLength(20);
    expect(first.at(-1)).toBe('page-17');
    expect(await w.page.locator('#groups-prev').isHidden()).toBe(true);
    w.queries.length = 0;
    await w.page.click('#groups-next');
    await w.page.waitForFunction(() => document.body.dataset.groupsPage === '2', undefined, { timeout: 15000 });
    expect(await tops()).toEqual(['page-18', 'page-19', 'zeta']);
    expect(await text(w.page, '#groups-note')).toBe('Page 2: 3 of 23 top-level groups.');
    expect(await w.page.locator('#groups-next').isHidden()).toBe(true);
    await w.page.click('#groups-prev');
    await w.page.waitForFunction(() => document.body.dataset.groupsPage === '1', undefined, { timeout: 15000 });
    expect(await tops()).toEqual(first);
    // Runners: 30 on the overview, the 31st and 32nd after "More", then no button.
    expect(await w.page.locator('#runners-table tbody tr').count()).toBe(30);
    await w.page.click('#runners-more');
    await w.page.waitForFunction(() => document.querySelectorAll('#runners-table tbody tr').length === 32, undefined, {
      timeout: 15000,
    });
    expect(await text(w.page, '#runners-note')).toBe('32 of 32 runners.');
    expect(await w.page.locator('#runners-more').isHidden()).toBe(true);
    expect(w.queries).toEqual(['DashboardGroups', 'DashboardGroups', 'DashboardRunners']);
    expect(w.problems).toEqual([]);
    await w.page.screenshot({ path: '/tmp/dashboard-paging.png', fullPage: true }).catch(() => undefined);
    await w.page.close();
  }, 60000);
});
