// The reference dashboard (docs/dashboard.md): three screens on the public GraphQL API, one request
// each, kept live by GraphQL subscriptions over WebSocket. Vanilla JavaScript, no dependencies; data
// only ever reaches the DOM as text (textContent / text nodes; the CSP enforces Trusted Types).
'use strict';

// <documents> Every GraphQL document the page sends, and the only code that knows how lists page.
// docs/dashboard.md shows them verbatim (test/platform/dashboard-page.test.ts keeps the two equal).
const JOBS_PER_PAGE = 20;
const GROUPS_PER_PAGE = 20;
const RUNNERS_PER_PAGE = 30;
const GROUP_LIST_PER_PAGE = 20;
const AUDIT_EVENTS_SHOWN = 10;

const RUNNER_ROW = `fragment DashboardRunnerRow on CiRunner {
  id: databaseId description status paused isShared
  jobs(first: 1, sort: DESC) { nodes { status name createdAt project { pathWithNamespace } } }
}`;

const GROUP_ROW = `fragment DashboardGroupRow on Group {
  id: databaseId parentId fullPath name projectsCount descendantGroupsCount groupMembersCount
}`;

const GROUPS_PAGE = `fragment DashboardGroupsPage on GroupConnection {
  count pageInfo { hasNextPage endCursor }
  nodes { ...DashboardGroupRow subgroups(first: 10) { count nodes { ...DashboardGroupRow } } }
}`;

const RUNNERS_PAGE = `fragment DashboardRunnersPage on CiRunnerConnection {
  count pageInfo { hasNextPage endCursor } nodes { ...DashboardRunnerRow }
}`;

const AUDIT_EVENT = `fragment DashboardAuditEvent on AuditEvent {
  id: databaseId createdAt entityType
  details { authorName entityPath targetType targetDetails change from to add remove customMessage }
}`;

const SUBGROUPS_PAGE = `fragment DashboardSubgroupsPage on GroupConnection {
  count pageInfo { hasNextPage endCursor } nodes { ...DashboardGroupRow }
}`;

const PROJECTS_PAGE = `fragment DashboardProjectsPage on ProjectConnection {
  count pageInfo { hasNextPage endCursor }
  nodes { id: databaseId name pathWithNamespace description visibility archived lastActivityAt }
}`;

const MEMBERS_PAGE = `fragment DashboardMembersPage on MemberConnection {
  count pageInfo { hasNextPage endCursor }
  nodes { id: databaseId expiresAt user { username name } accessLevel { stringValue integerValue } group { fullPath } }
}`;

const JOBS_PAGE = `fragment DashboardJobsPage on CiJobConnection {
  count pageInfo { hasNextPage endCursor }
  nodes { id: databaseId status name stage { name } ref createdAt duration project { pathWithNamespace } }
}`;

const DOCUMENTS = {
  overview: `query DashboardOverview {
  currentUser { username isAdmin }
  users { count }
  projects { count }
  allGroups: groups { count }
  groups(topLevelOnly: true, first: ${GROUPS_PER_PAGE}) { ...DashboardGroupsPage }
  runners(first: ${RUNNERS_PER_PAGE}) { ...DashboardRunnersPage }
  auditEvents(first: ${AUDIT_EVENTS_SHOWN}) { nodes { ...DashboardAuditEvent } }
  broadcastMessages(active: true, first: 20) { nodes { id: databaseId message color font endsAt } }
  features(first: 100) { count nodes { name state gates { key value } } }
}
${GROUPS_PAGE}
${GROUP_ROW}
${RUNNERS_PAGE}
${RUNNER_ROW}
${AUDIT_EVENT}`,

  groups: `query DashboardGroups($after: String) {
  groups(topLevelOnly: true, first: ${GROUPS_PER_PAGE}, after: $after) { ...DashboardGroupsPage }
}
${GROUPS_PAGE}
${GROUP_ROW}`,

  runners: `query DashboardRunners($after: String!) {
  runners(first: ${RUNNERS_PER_PAGE}, after: $after) { ...DashboardRunnersPage }
}
${RUNNERS_PAGE}
${RUNNER_ROW}`,

  group: `query DashboardGroup($fullPath: ID!) {
  currentUser { username isAdmin }
  group(fullPath: $fullPath) {
    ...DashboardGroupRow fullName description visibility createdAt
    parent { fullPath name }
    subgroups(first: ${GROUP_LIST_PER_PAGE}) { ...DashboardSubgroupsPage }
    projects(first: ${GROUP_LIST_PER_PAGE}) { ...DashboardProjectsPage }
    groupMembers(first: ${GROUP_LIST_PER_PAGE}) { ...DashboardMembersPage }
  }
}
${GROUP_ROW}
${SUBGROUPS_PAGE}
${PROJECTS_PAGE}
${MEMBERS_PAGE}`,

  groupSubgroups: `query DashboardGroupSubgroups($fullPath: ID!, $after: String!) {
  group(fullPath: $fullPath) { subgroups(first: ${GROUP_LIST_PER_PAGE}, after: $after) { ...DashboardSubgroupsPage } }
}
${SUBGROUPS_PAGE}
${GROUP_ROW}`,

  groupProjects: `query DashboardGroupProjects($fullPath: ID!, $after: String!) {
  group(fullPath: $fullPath) { projects(first: ${GROUP_LIST_PER_PAGE}, after: $after) { ...DashboardProjectsPage } }
}
${PROJECTS_PAGE}`,

  groupMembers: `query DashboardGroupMembers($fullPath: ID!, $after: String!) {
  group(fullPath: $fullPath) { groupMembers(first: ${GROUP_LIST_PER_PAGE}, after: $after) { ...DashboardMembersPage } }
}
${MEMBERS_PAGE}`,

  runner: `query DashboardRunner($id: CiRunnerID!, $perPage: Int!) {
  currentUser { username isAdmin }
  runner(id: $id) {
    description status paused isShared locked runUntagged tagList
    contactedAt version platform architecture
    projects(first: 20) { count nodes { pathWithNamespace } }
    jobs(first: $perPage, sort: DESC) { ...DashboardJobsPage }
  }
}
${JOBS_PAGE}`,

  runnerJobs: `query DashboardRunnerJobs($id: CiRunnerID!, $perPage: Int!, $after: String!) {
  runner(id: $id) { jobs(first: $perPage, after: $after, sort: DESC) { ...DashboardJobsPage } }
}
${JOBS_PAGE}`,

  runnerChanged: `subscription DashboardRunnerChanged($id: CiRunnerID) {
  runnerChanged(id: $id) { databaseId deleted runner { ...DashboardRunnerRow locked runUntagged tagList } }
}
${RUNNER_ROW}`,

  groupChanged: `subscription DashboardGroupChanged {
  groupChanged { action databaseId group { ...DashboardGroupRow fullName description visibility } }
}
${GROUP_ROW}`,

  auditEventAdded: `subscription DashboardAuditEventAdded {
  auditEventAdded { ...DashboardAuditEvent }
}
${AUDIT_EVENT}`,

  broadcastMessagesChanged: `subscription DashboardBroadcastMessagesChanged {
  broadcastMessagesChanged { action databaseId broadcastMessage { id: databaseId message color font endsAt active } }
}`,

  featureFlagChanged: `subscription DashboardFeatureFlagChanged {
  featureFlagChanged { name deleted feature { name state gates { key value } } }
}`,
};

/**
 * Variables of each document. The page keys rows and routes by database ids (`id: databaseId` aliases
 * above; runner(id:) takes a global or a database id). A list's next page is `after` its last page's
 * `pageInfo.endCursor` (Relay cursors: rows added meanwhile do not shift the pages); null at the end.
 */
const after = (list) => (list.pageInfo.hasNextPage ? list.pageInfo.endCursor : null);
const VARIABLES = {
  group: (fullPath) => ({ fullPath }),
  runner: (id) => ({ id: Number(id), perPage: JOBS_PER_PAGE }),
  runnerChanged: (id) => ({ id: id === undefined ? undefined : Number(id) }),
  /** The next page of a root list (groups, runners) after `list`, or null at the end. */
  nextPage: (list) => (after(list) ? { after: after(list) } : null),
  /** The next page of one of a group's lists (subgroups, projects, members) after `list`, or null. */
  groupListAfter: (fullPath, list) => (after(list) ? { fullPath, after: after(list) } : null),
  /** The next jobs page after `jobs` (a CiJobConnection), or null at the end. */
  runnerJobsAfter: (id, jobs) => (after(jobs) ? { id: Number(id), perPage: JOBS_PER_PAGE, after: after(jobs) } : null),
};

/** What the page reads of any list it asked for: more rows exist, and how many in all (null: > 10,000). */
const listInfo = (list) => ({ more: list.pageInfo.hasNextPage, total: list.count });
// </documents>

const TOKEN_KEY = 'gitlab-admin-dashboard.token';
const main = document.getElementById('main');

// ---------------------------------------------------------------------------------------------
// DOM: elements built from text only.

/** h('td', { class: 'num' }, 'text', childNode): strings become text nodes, never markup. */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'dataset') {
      for (const [name, value] of Object.entries(v))
        if (value !== undefined && value !== null) el.dataset[name] = value;
    } else if (k === 'href' || k === 'id' || k === 'title' || k === 'role') el.setAttribute(k, v);
    else if (k === 'hidden') el.hidden = true;
    else throw new Error(`h(): unsupported attribute ${k}`);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return el;
}

const badge = (text, cls) => h('span', { class: `badge ${cls || ''}` }, text);
/** A count the API bounds at 10,000 (null above). */
const count = (n) => (n === null || n === undefined ? '> 10,000' : n.toLocaleString('en'));
const when = (iso) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—');
const groupHref = (fullPath) => `#/groups/${fullPath.split('/').map(encodeURIComponent).join('/')}`;
const runnerHref = (id) => `#/runners/${encodeURIComponent(id)}`;

/** A table's head: a header starting with # is a number column (right-aligned). */
const tableHead = (headers) =>
  h(
    'thead',
    {},
    h(
      'tr',
      {},
      headers.map((x) => h('th', { class: x.startsWith('#') ? 'num' : '' }, x.replace(/^#/, ''))),
    ),
  );

function table(id, headers, rows) {
  return h('table', { id }, tableHead(headers), h('tbody', {}, rows));
}

function section(id, title, ...content) {
  return h('section', { id }, h('h2', {}, title), ...content);
}

function showError(text) {
  const box = document.getElementById('error');
  box.textContent = text || '';
  box.hidden = !text;
}

// ---------------------------------------------------------------------------------------------
// Token: typed by the user, kept in sessionStorage (this tab only; gone when it closes), sent as a
// header. No cookie is ever involved, so other sites cannot make the browser send it (docs/dashboard.md).

const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY) || '',
  set: (value) => sessionStorage.setItem(TOKEN_KEY, value),
  forget: () => sessionStorage.removeItem(TOKEN_KEY),
};

function authHeaders() {
  const t = token.get();
  return t ? { Authorization: `Bearer ${t}` } : {};
}

/** One POST /graphql: { data, errors } (errors [] when none). */
async function graphql(query, variables) {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...authHeaders() },
    body: JSON.stringify({ query, variables: variables || {} }),
    credentials: 'omit',
    cache: 'no-store',
  });
  let body;
  try {
    body = await res.json();
  } catch {
    throw new Error(`POST /graphql answered ${res.status} without JSON`);
  }
  return { data: body.data || null, errors: body.errors || [], status: res.status };
}

const codeOf = (e) => (e.extensions && e.extensions.code) || '';
/** The error of one root field (by response name), if it failed. */
const fieldError = (errors, name) => errors.find((e) => Array.isArray(e.path) && e.path[0] === name);
const ACCESS = ['FORBIDDEN', 'UNAUTHENTICATED'];

/** Errors other than "this field is not for you" go to the banner. */
function reportErrors(result) {
  const other = result.errors.filter((e) => !ACCESS.includes(codeOf(e)) || !e.path);
  showError(other.map((e) => `${codeOf(e) || 'ERROR'}: ${e.message}`).join('\n'));
}

function showWho(user) {
  document.getElementById('who').textContent = user
    ? `@${user.username}${user.isAdmin ? ' (admin)' : ''}`
    : token.get()
      ? 'token not accepted'
      : 'anonymous';
  document.getElementById('forget-token').hidden = !token.get();
}

// ---------------------------------------------------------------------------------------------
// Live: a minimal graphql-transport-ws client (the protocol of the graphql-ws library:
// https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md). connection_init carries the token;
// subscribe / next / error / complete per subscription; ping answered with pong; a dropped socket
// reconnects with exponential backoff and the screen reloads its one query (events may have been missed).

function createLive(onStatus, onResync) {
  const subs = new Map(); // id -> { payload, sink }
  let ws = null;
  let acked = false;
  let attempts = 0;
  let timer = null;
  let watchdog = null;
  let seq = 0;
  let everConnected = false;

  let shown = '';
  const send = (msg) => ws && ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(msg));
  const status = (s) => s !== shown && onStatus((shown = s));

  let ended = 0;
  let resyncTimer = null;
  function resyncLater() {
    if (resyncTimer) return;
    const delay = Math.min(30000, 1000 * 2 ** ended) + Math.floor(Math.random() * 500);
    ended += 1;
    resyncTimer = setTimeout(() => {
      resyncTimer = null;
      onResync();
    }, delay);
  }

  function alive() {
    // The server pings every 12 s; silence for 30 s means a dead connection.
    clearTimeout(watchdog);
    watchdog = setTimeout(() => ws && ws.close(4000, 'no ping'), 30000);
  }

  function connect() {
    clearTimeout(timer);
    timer = null;
    const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
    const socket = new WebSocket(url, 'graphql-transport-ws');
    ws = socket;
    acked = false;
    status(everConnected ? 'reconnecting' : 'connecting');
    socket.onopen = () => {
      const t = token.get();
      socket.send(JSON.stringify({ type: 'connection_init', payload: t ? { Authorization: `Bearer ${t}` } : {} }));
      alive();
    };
    socket.onmessage = (ev) => {
      if (socket !== ws) return;
      alive();
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return socket.close(4400, 'bad message');
      }
      const sub = msg.id !== undefined ? subs.get(msg.id) : undefined;
      switch (msg.type) {
        case 'connection_ack': {
          acked = true;
          attempts = 0;
          status('connected');
          if (everConnected) {
            // A reconnection: the screen reloads (one query) and subscribes afresh.
            subs.clear();
            onResync();
          } else for (const [id, s] of subs) send({ id, type: 'subscribe', payload: s.payload });
          everConnected = true;
          break;
        }
        case 'ping':
          send({ type: 'pong' });
          break;
        case 'next':
          ended = 0;
          if (sub) sub.sink(msg.payload);
          break;
        case 'error':
        case 'complete':
          // The server ended a subscription we did not end (docs/graphql.md#subscriptions-live-updates: a dropped LISTEN or
          // a subscriber too far behind ends with an error): unless access was refused, the screen
          // reloads and subscribes again after a backoff.
          if (!sub) break;
          subs.delete(msg.id);
          if (msg.type === 'error') sub.sink({ errors: msg.payload });
          if (!(msg.type === 'error' && msg.payload.some((e) => ACCESS.includes(codeOf(e))))) resyncLater();
          break;
        default:
          break;
      }
    };
    socket.onclose = (ev) => {
      if (socket !== ws) return;
      ws = null;
      acked = false;
      clearTimeout(watchdog);
      // 4401/4403: the token was refused; 4400: a protocol error. Retrying would not help.
      if ([4400, 4401, 4403].includes(ev.code)) return status('refused');
      if (subs.size === 0) {
        everConnected = false; // nothing to resume: the next subscription starts a fresh connection
        return status('off');
      }
      const delay = Math.min(30000, 1000 * 2 ** attempts) + Math.floor(Math.random() * 500);
      attempts += 1;
      status('reconnecting');
      timer = setTimeout(connect, delay);
    };
  }

  return {
    /** Starts a subscription; `sink` gets each { data, errors }. Returns the function that ends it. */
    subscribe(query, variables, sink) {
      seq += 1;
      const id = String(seq);
      const payload = { query, variables: variables || {} };
      subs.set(id, { payload, sink });
      if (!ws && !timer) connect();
      else if (acked) send({ id, type: 'subscribe', payload });
      return () => {
        if (subs.delete(id) && acked) send({ id, type: 'complete' });
      };
    },
    /** Ends every subscription and the socket (token changed or forgotten). */
    stop() {
      subs.clear();
      clearTimeout(timer);
      clearTimeout(resyncTimer);
      resyncTimer = null;
      clearTimeout(watchdog);
      timer = null;
      const socket = ws;
      ws = null;
      everConnected = false;
      attempts = 0;
      if (socket) socket.close(1000, 'bye');
      status('off');
    },
  };
}

const live = createLive(
  (s) => {
    document.body.dataset.live = s;
    document.getElementById('live').textContent = `live: ${s}`;
  },
  () => render({ resync: true }),
);

/** The subscriptions of the screen on show, ended when another screen renders. */
let screenSubs = [];
function watch(query, variables, onData) {
  document.body.dataset.subscriptions = String(screenSubs.length + 1);
  screenSubs.push(
    live.subscribe(query, variables, (result) => {
      if (result.errors && result.errors.length)
        showError(result.errors.map((e) => `live: ${codeOf(e) || 'ERROR'}: ${e.message}`).join('\n'));
      if (result.data) onData(result.data);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Lists that page: "More" appends the next page, "Next" / "Previous" replace it. One request a click.

/**
 * A "More" button under a list: sends `doc` with `next(last page)`, hands the page that `pick(data)`
 * finds to `append`, and hides itself after the last page.
 */
function moreButton(id, doc, first, next, pick, append, isCurrent) {
  let last = first;
  const button = h('button', { id, class: 'more' }, 'More');
  button.type = 'button';
  const update = () => {
    button.hidden = !next(last);
  };
  button.addEventListener('click', async () => {
    const variables = next(last);
    if (!variables || button.disabled) return;
    button.disabled = true;
    try {
      const result = await graphql(doc, variables);
      if (!isCurrent()) return;
      reportErrors(result);
      const page = result.data && pick(result.data);
      if (page) {
        append(page);
        last = page;
      }
    } catch (e) {
      showError(`The request failed: ${e.message || e}`);
    } finally {
      button.disabled = false;
      update();
    }
  });
  update();
  return button;
}

/** Rows not shown yet (by their `data-key`): a page read after a live insert may repeat one. */
function appendNew(body, rows) {
  const shown = new Set([...body.children].map((tr) => tr.dataset.key));
  body.append(...rows.filter((tr) => !shown.has(tr.dataset.key)));
}

// ---------------------------------------------------------------------------------------------
// Screen 1: instance overview.

/** A group's row; subgroups (`child`) follow their parent's row. Keyed by database id for live changes. */
function groupRow(g, child) {
  return h(
    'tr',
    {
      class: child ? 'child' : '',
      dataset: { group: g.fullPath, key: String(g.id), parentId: g.parentId === null ? undefined : String(g.parentId) },
    },
    h('td', {}, h('a', { href: groupHref(g.fullPath) }, g.name), ' ', h('span', { class: 'muted' }, g.fullPath)),
    h('td', { class: 'num' }, count(g.projectsCount)),
    h('td', { class: 'num' }, count(g.descendantGroupsCount)),
    h('td', { class: 'num' }, count(g.groupMembersCount)),
  );
}

const groupRows = (nodes) =>
  nodes.flatMap((g) => [groupRow(g, false), ...g.subgroups.nodes.map((s) => groupRow(s, true))]);

function latestJobCell(r) {
  if (!r.jobs) return h('td', { class: 'hint' }, 'not visible');
  const job = r.jobs.nodes[0];
  if (!job) return h('td', { class: 'muted' }, 'no jobs');
  return h(
    'td',
    {},
    badge(job.status, `status-${job.status}`),
    ' ',
    job.name,
    ' ',
    h('span', { class: 'muted' }, `${job.project.pathWithNamespace} · ${when(job.createdAt)}`),
  );
}

function runnerRow(r) {
  return h(
    'tr',
    { dataset: { runner: String(r.id), key: String(r.id) } },
    h('td', {}, h('a', { href: runnerHref(r.id) }, `#${r.id}`), ' ', r.description),
    h(
      'td',
      { class: 'status' },
      badge(r.status, `status-${r.status}`),
      r.paused ? [' ', badge('paused', 'paused')] : null,
    ),
    h('td', {}, r.isShared ? 'shared' : 'specific'),
    latestJobCell(r),
  );
}

function broadcastItem(m) {
  const el = h(
    'div',
    { class: 'broadcast', dataset: { message: String(m.id) } },
    m.message,
    ' ',
    h('span', { class: 'muted' }, `until ${when(m.endsAt)}`),
  );
  // CSSOM (not a style attribute): allowed by the CSP; invalid colours are ignored by the browser.
  el.style.backgroundColor = m.color || '';
  el.style.color = m.font || '';
  return el;
}

const gatesText = (gates) =>
  gates.map((g) => `${g.key}=${Array.isArray(g.value) ? g.value.join(',') : g.value}`).join('; ');
const flagRow = (f) =>
  h(
    'tr',
    { dataset: { flag: f.name } },
    h('td', {}, f.name),
    h('td', {}, badge(f.state, `state-${f.state}`)),
    h('td', { class: 'muted' }, gatesText(f.gates)),
  );

/** An audit event in words: GitLab's details (change from → to, add, remove, or a message). */
function auditAction(d) {
  if (d.change) return `changed ${d.change} from ${d.from || '(empty)'} to ${d.to || '(empty)'}`;
  if (d.add) return `added ${d.add}`;
  if (d.remove) return `removed ${d.remove}`;
  return d.customMessage || '';
}

const auditRow = (e) =>
  h(
    'tr',
    { dataset: { audit: String(e.id) } },
    h('td', {}, when(e.createdAt)),
    h('td', {}, e.details.authorName),
    h('td', {}, auditAction(e.details)),
    h(
      'td',
      {},
      `${e.details.targetType} ${e.details.targetDetails}`,
      ' ',
      h('span', { class: 'muted' }, e.details.entityPath || e.entityType),
    ),
  );

function accessHint(errors, field, what) {
  const e = fieldError(errors, field);
  const code = e ? codeOf(e) : '';
  return h(
    'p',
    { class: 'hint' },
    code === 'UNAUTHENTICATED' ? `${what}: sign in with a token.` : `${what}: administrators only.`,
  );
}

/** Totals: `count` of each list (null above 10,000); "—" where the caller may not read the list. */
function totalsSection(data) {
  const total = (key, label, list) =>
    h(
      'div',
      { class: 'total', dataset: { total: key }, title: list ? undefined : 'not readable with this token' },
      h('div', { class: 'total-value' }, list ? count(list.count) : '—'),
      h('div', { class: 'muted' }, label),
    );
  return section(
    'totals',
    'Totals',
    h(
      'div',
      { class: 'totals' },
      total('users', 'Users', data.users),
      total('projects', 'Projects', data.projects),
      total('groups', 'Groups', data.allGroups),
      total('runners', 'Runners', data.runners),
    ),
  );
}

/**
 * The top-level groups, a page at a time ("Next" / "Previous": the cursors of the pages seen), each with
 * its first subgroups.
 */
function groupsSection(first, isCurrent) {
  const groups = section('groups', 'Groups');
  const body = h('tbody', {});
  const note = h('p', { class: 'muted', id: 'groups-note' });
  const prev = h('button', { id: 'groups-prev' }, 'Previous');
  const next = h('button', { id: 'groups-next' }, 'Next');
  prev.type = 'button';
  next.type = 'button';
  const starts = [null]; // the `after` of each page seen; the last one is on show
  let page = first;
  const show = (list) => {
    page = list;
    body.replaceChildren(...groupRows(list.nodes));
    const n = starts.length;
    document.body.dataset.groupsPage = String(n);
    note.textContent = list.nodes.length
      ? `Page ${n}: ${list.nodes.length} of ${count(listInfo(list).total)} top-level groups.`
      : 'No group visible.';
    prev.hidden = n === 1;
    next.hidden = !VARIABLES.nextPage(list);
  };
  const go = async (variables) => {
    prev.disabled = next.disabled = true;
    try {
      const result = await graphql(DOCUMENTS.groups, variables);
      if (!isCurrent()) return false;
      reportErrors(result);
      if (!result.data || !result.data.groups) return false;
      show(result.data.groups);
      return true;
    } catch (e) {
      showError(`The request failed: ${e.message || e}`);
      return false;
    } finally {
      prev.disabled = next.disabled = false;
    }
  };
  next.addEventListener('click', async () => {
    const variables = VARIABLES.nextPage(page);
    if (!variables) return;
    starts.push(variables.after);
    if (!(await go(variables))) starts.pop();
  });
  prev.addEventListener('click', async () => {
    if (starts.length < 2) return;
    const gone = starts.pop();
    if (!(await go({ after: starts[starts.length - 1] }))) starts.push(gone);
  });
  groups.append(
    h('table', { id: 'groups-table' }, tableHead(['Group', '#Projects', '#Subgroups', '#Members']), body),
    note,
    h('p', { class: 'pager' }, prev, ' ', next),
  );
  show(first);
  return {
    element: groups,
    /** groupChanged: a group's row follows its group; a new one lands at its place when it is on this page. */
    apply(c) {
      const byId = (id) => body.querySelector(`tr[data-key="${CSS.escape(String(id))}"]`);
      const old = byId(c.databaseId);
      const removeWithChildren = (tr) => {
        if (!tr) return;
        if (!tr.classList.contains('child'))
          body.querySelectorAll(`tr[data-parent-id="${CSS.escape(tr.dataset.key)}"]`).forEach((x) => x.remove());
        tr.remove();
      };
      const g = c.group;
      if (!g) return removeWithChildren(old);
      const child = g.parentId !== null;
      if (
        old &&
        old.classList.contains('child') === child &&
        old.dataset.parentId === (child ? String(g.parentId) : undefined)
      )
        return old.replaceWith(groupRow(g, child));
      removeWithChildren(old); // moved: shown again where it now belongs
      if (child) {
        const parent = byId(g.parentId);
        if (!parent || parent.classList.contains('child')) return;
        let at = parent;
        while (at.nextElementSibling && at.nextElementSibling.classList.contains('child')) at = at.nextElementSibling;
        return at.after(groupRow(g, true));
      }
      // The service orders by name, then id: the new row goes before the first top-level row named after it,
      // unless that is the first row of a later page (it belongs to an earlier one); after the last row only
      // on the last page.
      const tops = [...body.children].filter((tr) => !tr.classList.contains('child'));
      const name = (tr) => tr.querySelector('a').textContent;
      const before = tops.find((tr) => name(tr) > g.name);
      if (before && !(before === tops[0] && starts.length > 1)) return before.before(groupRow(g, false));
      if (!before && !VARIABLES.nextPage(page)) body.append(groupRow(g, false));
    },
  };
}

function runnersSection(first, isCurrent) {
  const runners = section('runners', 'Runner fleet');
  const body = h('tbody', {}, first.nodes.map(runnerRow));
  const note = h('p', { class: 'muted', id: 'runners-note' });
  const describe = () => {
    note.textContent = `${body.children.length} of ${count(listInfo(first).total)} runners.`;
  };
  runners.append(
    h('table', { id: 'runners-table' }, tableHead(['Runner', 'Status', 'Type', 'Latest job']), body),
    note,
    moreButton(
      'runners-more',
      DOCUMENTS.runners,
      first,
      VARIABLES.nextPage,
      (d) => d.runners,
      (list) => {
        appendNew(body, list.nodes.map(runnerRow));
        describe();
      },
      isCurrent,
    ),
  );
  describe();
  return runners;
}

function renderOverview(data, errors, isCurrent) {
  const messages = section('broadcasts', 'Active broadcast messages');
  if (data.broadcastMessages) {
    const list = h('div', { id: 'broadcast-list' }, data.broadcastMessages.nodes.map(broadcastItem));
    messages.append(
      list,
      h('p', { class: 'muted empty-note' }, data.broadcastMessages.nodes.length ? '' : 'None active.'),
    );
  } else messages.append(accessHint(errors, 'broadcastMessages', 'Broadcast messages'));

  let groups = null;
  if (data.groups) groups = groupsSection(data.groups, isCurrent);
  const groupsElement = groups ? groups.element : section('groups', 'Groups', accessHint(errors, 'groups', 'Groups'));

  const runners = data.runners
    ? runnersSection(data.runners, isCurrent)
    : section('runners', 'Runner fleet', accessHint(errors, 'runners', 'Runners'));

  const audit = section('audit', 'Audit log (latest events)');
  if (data.auditEvents)
    audit.append(
      table('audit-table', ['When', 'Who', 'What', 'Target'], data.auditEvents.nodes.map(auditRow)),
      h('p', { class: 'muted' }, data.auditEvents.nodes.length ? '' : 'No events yet.'),
    );
  else audit.append(accessHint(errors, 'auditEvents', 'Audit log'));

  const flags = section('flags', 'Feature flags');
  if (data.features) {
    flags.append(table('flags-table', ['Flag', 'State', 'Gates'], data.features.nodes.map(flagRow)));
    if (data.features.count === null || data.features.count > data.features.nodes.length)
      flags.append(
        h('p', { class: 'muted' }, `First ${data.features.nodes.length} of ${count(data.features.count)} flags.`),
      );
  } else flags.append(accessHint(errors, 'features', 'Feature flags'));

  main.replaceChildren(totalsSection(data), messages, groupsElement, runners, audit, flags);

  if (!data.currentUser) return;
  // Groups: a changed group's row follows it, a new one appears, a deleted (or hidden) one disappears.
  if (groups) watch(DOCUMENTS.groupChanged, {}, ({ groupChanged: c }) => groups.apply(c));
  if (data.runners) {
    // Runners: a changed runner replaces its row (a new one is added), a removed one disappears.
    watch(DOCUMENTS.runnerChanged, VARIABLES.runnerChanged(undefined), ({ runnerChanged: c }) => {
      const body = document.querySelector('#runners-table tbody');
      if (!body) return;
      const old = body.querySelector(`tr[data-runner="${CSS.escape(String(c.databaseId))}"]`);
      if (c.deleted || !c.runner) return old && old.remove();
      if (old) old.replaceWith(runnerRow(c.runner));
      else body.append(runnerRow(c.runner));
    });
  }
  if (data.auditEvents) {
    // The audit log: a new event on top; the table keeps the latest AUDIT_EVENTS_SHOWN.
    watch(DOCUMENTS.auditEventAdded, {}, ({ auditEventAdded: e }) => {
      const body = document.querySelector('#audit-table tbody');
      if (!body || body.querySelector(`tr[data-audit="${CSS.escape(String(e.id))}"]`)) return;
      body.prepend(auditRow(e));
      while (body.children.length > AUDIT_EVENTS_SHOWN) body.lastElementChild.remove();
      document.querySelector('#audit p.muted').textContent = '';
    });
  }
  if (data.broadcastMessages) {
    watch(DOCUMENTS.broadcastMessagesChanged, {}, ({ broadcastMessagesChanged: c }) => {
      const list = document.getElementById('broadcast-list');
      if (!list) return;
      const old = list.querySelector(`[data-message="${CSS.escape(String(c.databaseId))}"]`);
      const m = c.broadcastMessage;
      if (!m || !m.active) old && old.remove();
      else if (old) old.replaceWith(broadcastItem(m));
      else list.append(broadcastItem(m));
      document.querySelector('#broadcasts .empty-note').textContent = list.children.length ? '' : 'None active.';
    });
  }
  if (data.features) {
    watch(DOCUMENTS.featureFlagChanged, {}, ({ featureFlagChanged: c }) => {
      const body = document.querySelector('#flags-table tbody');
      if (!body) return;
      const old = body.querySelector(`tr[data-flag="${CSS.escape(c.name)}"]`);
      if (c.deleted || !c.feature) return old && old.remove();
      if (old) old.replaceWith(flagRow(c.feature));
      else body.append(flagRow(c.feature));
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Screen 2: a group.

function groupDetails(g) {
  return h(
    'section',
    { id: 'group' },
    h('h1', {}, g.fullName),
    g.description ? h('p', { id: 'group-description' }, g.description) : null,
    h(
      'dl',
      { class: 'details' },
      h('dt', {}, 'Path'),
      h('dd', {}, g.fullPath),
      h('dt', {}, 'Visibility'),
      h('dd', { id: 'group-visibility' }, g.visibility.toLowerCase()),
      h('dt', {}, 'Created'),
      h('dd', {}, when(g.createdAt)),
      h('dt', {}, 'Projects'),
      h('dd', { id: 'group-projects-count' }, count(g.projectsCount)),
      h('dt', {}, 'Subgroups (all depths)'),
      h('dd', {}, count(g.descendantGroupsCount)),
      h('dt', {}, 'Direct members'),
      h('dd', {}, count(g.groupMembersCount)),
    ),
  );
}

const projectRow = (p) =>
  h(
    'tr',
    { dataset: { project: p.pathWithNamespace, key: String(p.id) } },
    h(
      'td',
      {},
      p.name,
      ' ',
      h('span', { class: 'muted' }, p.pathWithNamespace),
      p.archived ? [' ', badge('archived')] : null,
      p.description ? h('div', { class: 'muted' }, p.description) : null,
    ),
    h('td', {}, p.visibility.toLowerCase()),
    h('td', {}, when(p.lastActivityAt)),
  );

/** A membership: the user, the role, and where it comes from (this group, or an ancestor: inherited). */
const memberRow = (fullPath) => (m) =>
  h(
    'tr',
    { dataset: { member: m.user ? m.user.username : '', key: String(m.id) } },
    h('td', {}, m.user ? [m.user.name, ' ', h('span', { class: 'muted' }, `@${m.user.username}`)] : '—'),
    h('td', {}, `${m.accessLevel.stringValue.toLowerCase()} (${m.accessLevel.integerValue})`),
    h(
      'td',
      { class: 'muted' },
      !m.group || m.group.fullPath === fullPath ? 'direct' : `inherited from ${m.group.fullPath}`,
    ),
    h('td', {}, m.expiresAt || '—'),
  );

/** One of the group's lists: its table with the first page, a note, and "More" for the next pages. */
function groupList(opts, isCurrent) {
  const { id, title, headers, first, row, doc, pick, what } = opts;
  const box = section(id, title);
  const body = h('tbody', {}, first.nodes.map(row));
  const note = h('p', { class: 'muted', id: `${id}-note` });
  const describe = () => {
    note.textContent = body.children.length
      ? `${body.children.length} of ${count(listInfo(first).total)} ${what}.`
      : `No ${what}.`;
  };
  box.append(
    h('table', { id: `${id}-table` }, tableHead(headers), body),
    note,
    moreButton(
      `${id}-more`,
      doc,
      first,
      (list) => VARIABLES.groupListAfter(opts.fullPath, list),
      (d) => d.group && pick(d.group),
      (list) => {
        appendNew(body, list.nodes.map(row));
        describe();
      },
      isCurrent,
    ),
  );
  describe();
  return { element: box, body, describe };
}

function renderGroup(data, errors, fullPath, isCurrent) {
  const g = data.group;
  const crumbs = h('p', { class: 'muted' }, h('a', { href: '#/' }, 'Overview'));
  if (!g) {
    // group(fullPath) answers null, without an error, for a group that does not exist or is not visible.
    const e = fieldError(errors, 'group');
    main.replaceChildren(
      crumbs,
      section(
        'group',
        fullPath,
        h(
          'p',
          { class: 'hint' },
          !e || codeOf(e) === 'NOT_FOUND'
            ? 'No such group, or not visible with this token.'
            : 'This group could not be loaded.',
        ),
      ),
    );
    return;
  }
  if (g.parent) crumbs.append(' / ', h('a', { href: groupHref(g.parent.fullPath) }, g.parent.name));
  crumbs.append(' / ', g.name);
  const groupHeaders = ['Group', '#Projects', '#Subgroups', '#Members'];
  const subgroups = groupList(
    {
      id: 'subgroups',
      title: 'Subgroups',
      headers: groupHeaders,
      first: g.subgroups,
      row: (s) => groupRow(s, false),
      doc: DOCUMENTS.groupSubgroups,
      pick: (x) => x.subgroups,
      what: 'subgroups',
      fullPath,
    },
    isCurrent,
  );
  const projects = groupList(
    {
      id: 'projects',
      title: 'Projects',
      headers: ['Project', 'Visibility', 'Last activity'],
      first: g.projects,
      row: projectRow,
      doc: DOCUMENTS.groupProjects,
      pick: (x) => x.projects,
      what: 'projects',
      fullPath,
    },
    isCurrent,
  );
  const members = groupList(
    {
      id: 'members',
      title: 'Members',
      headers: ['Member', 'Role', 'Source', 'Expires'],
      first: g.groupMembers,
      row: memberRow(g.fullPath),
      doc: DOCUMENTS.groupMembers,
      pick: (x) => x.groupMembers,
      what: 'members (direct and inherited)',
      fullPath,
    },
    isCurrent,
  );
  main.replaceChildren(crumbs, groupDetails(g), subgroups.element, projects.element, members.element);

  if (!data.currentUser) return;
  // The group itself follows its changes; its subgroups appear, change and disappear.
  watch(DOCUMENTS.groupChanged, {}, ({ groupChanged: c }) => {
    const details = document.getElementById('group');
    if (!details) return;
    if (c.databaseId === g.id) {
      if (!c.group) {
        if (!document.getElementById('group-removed'))
          details.append(
            h('p', { class: 'error', id: 'group-removed' }, 'This group was deleted (or is no longer visible).'),
          );
        return;
      }
      // The subscription's group lacks what it does not select (creation time); keep what is shown.
      return details.replaceWith(groupDetails({ ...g, ...c.group }));
    }
    const old = subgroups.body.querySelector(`tr[data-key="${CSS.escape(String(c.databaseId))}"]`);
    if (!c.group || c.group.parentId !== g.id) old && old.remove();
    else if (old) old.replaceWith(groupRow(c.group, false));
    else subgroups.body.append(groupRow(c.group, false));
    subgroups.describe();
  });
}

// ---------------------------------------------------------------------------------------------
// Screen 3: a runner, its jobs newest first with infinite scroll.

function runnerDetails(id, r) {
  return h(
    'section',
    { id: 'runner' },
    h('h1', {}, `Runner #${id}`, ' ', h('span', { id: 'runner-description' }, r.description)),
    h(
      'dl',
      { class: 'details' },
      h('dt', {}, 'Status'),
      h(
        'dd',
        { id: 'runner-status', class: 'status' },
        badge(r.status, `status-${r.status}`),
        r.paused ? [' ', badge('paused', 'paused')] : null,
      ),
      h('dt', {}, 'Type'),
      h('dd', {}, r.isShared ? 'shared' : 'specific'),
      h('dt', {}, 'Tags'),
      h('dd', {}, r.tagList.length ? r.tagList.join(', ') : '—', r.runUntagged ? ' (also untagged jobs)' : ''),
      h('dt', {}, 'Locked'),
      h('dd', {}, r.locked ? 'yes' : 'no'),
      r.contactedAt !== undefined ? [h('dt', {}, 'Last contact'), h('dd', {}, when(r.contactedAt))] : null,
      r.version
        ? [h('dt', {}, 'Version'), h('dd', {}, [r.version, r.platform, r.architecture].filter(Boolean).join(' · '))]
        : null,
      r.projects
        ? [h('dt', {}, 'Projects'), h('dd', {}, r.projects.nodes.map((p) => p.pathWithNamespace).join(', ') || '—')]
        : null,
    ),
  );
}

const jobRow = (j) =>
  h(
    'tr',
    { dataset: { job: String(j.id) } },
    h('td', { class: 'num' }, `#${j.id}`),
    h('td', {}, badge(j.status, `status-${j.status}`)),
    h('td', {}, j.name, ' ', h('span', { class: 'muted' }, j.stage ? j.stage.name : '')),
    h('td', {}, j.ref),
    h('td', {}, j.project.pathWithNamespace),
    h('td', {}, when(j.createdAt)),
    h('td', { class: 'num' }, j.duration === null ? '—' : `${Math.round(j.duration)} s`),
  );

function renderRunner(data, errors, id, isCurrent) {
  const r = data.runner;
  const crumbs = h('p', { class: 'muted' }, h('a', { href: '#/' }, 'Overview'), ' / ', `Runner #${id}`);
  if (!r) {
    const e = fieldError(errors, 'runner');
    main.replaceChildren(
      crumbs,
      section(
        'runner',
        `Runner #${id}`,
        h(
          'p',
          { class: 'hint' },
          e && codeOf(e) === 'NOT_FOUND'
            ? 'No such runner, or not visible with this token.'
            : 'This runner could not be loaded.',
        ),
      ),
    );
    return;
  }
  const jobs = section('jobs-section', 'Jobs (newest first)');
  main.replaceChildren(crumbs, runnerDetails(id, r), jobs);
  if (!r.jobs)
    jobs.append(h('p', { class: 'hint' }, 'Jobs are listed for administrators and the runner\u2019s owners.'));
  else {
    const note = h('p', { id: 'jobs-note', class: 'muted' });
    const sentinel = h('div', { class: 'sentinel', id: 'jobs-sentinel' });
    jobs.append(
      table('jobs', ['#Job', 'Status', 'Name', 'Ref', 'Project', 'Created', '#Duration'], r.jobs.nodes.map(jobRow)),
      note,
      sentinel,
    );
    scrollJobs(id, r.jobs, note, sentinel, isCurrent);
  }
  if (!data.currentUser) return;
  watch(DOCUMENTS.runnerChanged, VARIABLES.runnerChanged(id), ({ runnerChanged: c }) => {
    const old = document.getElementById('runner');
    if (!old) return;
    if (c.deleted || !c.runner) {
      old.append(h('p', { class: 'error', id: 'runner-removed' }, 'This runner was removed.'));
      return;
    }
    // The subscription's runner lacks the details it does not select; keep those shown.
    const next = runnerDetails(id, { ...r, ...c.runner });
    old.replaceWith(next);
  });
}

/** Loads the next jobs page whenever the sentinel below the table scrolls into view. */
function scrollJobs(id, first, note, sentinel, isCurrent) {
  const body = document.querySelector('#jobs tbody');
  let last = first;
  let busy = false;
  const describe = () => {
    document.body.dataset.jobs = String(body.children.length);
    note.textContent = listInfo(last).more
      ? `${body.children.length} of ${count(listInfo(last).total)} jobs — scroll for more`
      : `All ${body.children.length} jobs.`;
  };
  describe();
  if (!VARIABLES.runnerJobsAfter(id, last)) return;
  const observer = new IntersectionObserver(async (entries) => {
    if (busy || !entries.some((e) => e.isIntersecting)) return;
    const variables = VARIABLES.runnerJobsAfter(id, last);
    if (!variables) return observer.disconnect();
    busy = true;
    try {
      const result = await graphql(DOCUMENTS.runnerJobs, variables);
      if (!isCurrent()) return observer.disconnect();
      reportErrors(result);
      const page = result.data && result.data.runner && result.data.runner.jobs;
      if (!page) return observer.disconnect();
      // An offset page may repeat a row when jobs were added meanwhile: skip ids already shown.
      const shown = new Set([...body.children].map((tr) => tr.dataset.job));
      body.append(...page.nodes.filter((j) => !shown.has(String(j.id))).map(jobRow));
      last = page;
      describe();
      if (!VARIABLES.runnerJobsAfter(id, last)) return observer.disconnect();
      // Observe again: if the sentinel is still in view (a tall window), the callback fires at once.
      observer.unobserve(sentinel);
      observer.observe(sentinel);
    } catch (e) {
      showError(String(e.message || e));
    } finally {
      busy = false;
    }
  });
  observer.observe(sentinel);
  screenCleanup.push(() => observer.disconnect());
}

// ---------------------------------------------------------------------------------------------
// Routing: #/, #/groups/<full path>, #/runners/<id>. Each screen is one POST /graphql.

let screenCleanup = [];
let generation = 0;

function route() {
  const hash = location.hash.replace(/^#/, '') || '/';
  let m;
  try {
    if (hash === '/') return { screen: 'overview' };
    if ((m = /^\/groups\/(.+)$/.exec(hash)))
      return { screen: 'group', fullPath: m[1].split('/').map(decodeURIComponent).join('/') };
    if ((m = /^\/runners\/([^/]+)$/.exec(hash))) return { screen: 'runner', id: decodeURIComponent(m[1]) };
  } catch {
    // A malformed %-sequence: an unknown page.
  }
  return { screen: 'unknown' };
}

async function render(opts) {
  generation += 1;
  const mine = generation;
  const isCurrent = () => mine === generation;
  for (const stop of screenSubs.splice(0)) stop();
  document.body.dataset.subscriptions = '0';
  for (const stop of screenCleanup.splice(0)) stop();
  const r = route();
  document.body.dataset.screen = r.screen;
  document.body.dataset.state = 'loading';
  if (!(opts && opts.resync)) showError('');
  try {
    let result;
    if (r.screen === 'overview') result = await graphql(DOCUMENTS.overview);
    else if (r.screen === 'group') result = await graphql(DOCUMENTS.group, VARIABLES.group(r.fullPath));
    else if (r.screen === 'runner') result = await graphql(DOCUMENTS.runner, VARIABLES.runner(r.id));
    else {
      main.replaceChildren(h('p', {}, 'Unknown page. ', h('a', { href: '#/' }, 'Overview')));
      document.body.dataset.state = 'ready';
      return;
    }
    if (!isCurrent()) return;
    reportErrors(result);
    const data = result.data || {};
    showWho(data.currentUser);
    if (token.get() && !data.currentUser && result.errors.some((e) => codeOf(e) === 'UNAUTHENTICATED')) {
      showError('The token was not accepted (revoked, expired or mistyped): forget it, or enter another one.');
    }
    if (!result.data) {
      main.replaceChildren(
        h(
          'p',
          { class: 'hint' },
          token.get() && result.status === 401
            ? 'The token was not accepted: forget it or enter another one.'
            : 'Nothing to show.',
        ),
      );
    } else if (r.screen === 'overview') renderOverview(data, result.errors, isCurrent);
    else if (r.screen === 'group') renderGroup(data, result.errors, r.fullPath, isCurrent);
    else renderRunner(data, result.errors, r.id, isCurrent);
    document.body.dataset.state = 'ready';
  } catch (e) {
    if (!isCurrent()) return;
    showError(`The request failed: ${e.message || e}`);
    document.body.dataset.state = 'failed';
  }
}

document.getElementById('token-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const input = document.getElementById('token-input');
  const value = input.value.trim();
  input.value = '';
  if (!value) return;
  token.set(value);
  live.stop();
  render();
});

document.getElementById('forget-token').addEventListener('click', () => {
  token.forget();
  live.stop();
  render();
});

window.addEventListener('hashchange', () => render());
render();
