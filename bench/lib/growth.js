// The growth scenarios (docs/growth.md): every list route's first page (and the deep and keyset variants)
// as anonymous, as a non-admin member of 50 groups and as an admin, measured with one client sending
// sequential requests (p50 and p99 of N), on the small and the large data set in the same run.
const path = require('node:path');
const { ensureMember } = require('./large');
const { FAR_TERM, BIG_TERM, FAR_ATTRIBUTE } = require('./far-end');
const { gitlabDocument } = require('./gitlab-documents');

const RUNNERS_DOC = 'ci/runner/graphql/list/all_runners.query.graphql';
const ADMIN_GROUPS_DOC = 'admin/groups/index/graphql/queries/admin_groups.query.graphql';
/** The variables GitLab's frontend sends for its first page (test/graphql/gitlab-documents-*.test.ts). */
const RUNNERS_VARS = { first: 20, sort: 'CREATED_DESC' };
const ADMIN_GROUPS_VARS = {
  first: 20,
  last: null,
  before: null,
  after: null,
  sort: 'updated_at_desc',
  search: '',
  active: true,
};

/** A token of bulk-member (an impersonation token made by the admin), and the ids the routes need. */
async function growthContext(base, adminToken, dbUrl) {
  const memberId = await ensureMember(dbUrl);
  const admin = { 'PRIVATE-TOKEN': adminToken };
  const res = await fetch(`${base}/api/v4/users/${memberId}/impersonation_tokens`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'growth-bench', scopes: ['api'] }),
  });
  if (!res.ok) throw new Error(`impersonation token for bulk-member: ${res.status} ${await res.text()}`);
  const memberToken = (await res.json()).token;
  const get = async (p) => (await fetch(`${base}/api/v4${p}`, { headers: admin })).json();
  const group = await get('/groups/scale-1');
  const project = await get(`/projects/${encodeURIComponent('acme/web/website')}`);
  const runners = await get('/runners/all?per_page=100');
  const runner = runners.find((r) => r.description === 'scale-runner-1-2') ?? runners[0];
  await runnersHaveJobs(base, adminToken, dbUrl);
  return { memberToken, groupId: group.id, projectId: project.id, runnerId: runner ? runner.id : 0 };
}

/** The runner list document's first page must show 20 runners that have jobs, on both sides. */
async function runnersHaveJobs(base, adminToken, dbUrl) {
  const res = await fetch(`${base}/api/graphql`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': adminToken, 'content-type': 'application/json' },
    body: JSON.stringify({ ...gitlabDocument(RUNNERS_DOC), variables: RUNNERS_VARS }),
  });
  const body = await res.json();
  if (body.errors) throw new Error(`${RUNNERS_DOC}: ${JSON.stringify(body.errors).slice(0, 300)}`);
  const ids = body.data.runners.nodes.map((n) => Number(n.id.split('/').pop()));
  const { Client } = require('pg');
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      'select count(*)::int as n from ci_runners r where r.id = any($1) and exists (select 1 from ci_builds b where b.runner_id = r.id)',
      [ids],
    );
    if (ids.length !== 20 || rows[0].n !== 20)
      throw new Error(`${RUNNERS_DOC}: the first page shows ${ids.length} runners, ${rows[0].n} of them with jobs`);
  } finally {
    await db.end();
  }
}

/**
 * `who`: 'anon', 'member' or 'admin'. `scale-5`, `scale-user-5` and `website` match the same rows at both
 * sizes; `project-5` (a term whose trigrams are in most rows) matches 1,000 projects of the small set and 112,000 of the large one.
 * The far-end scenarios match the same 1,000 rows (2,000 namespaces) at both sizes, all at the far end of
 * the list's order: the oldest projects, the last groups by name, the highest user and namespace ids (far-end.js).
 */
function growthScenarios({ groupId, projectId, runnerId }) {
  const s = (key, who, path) => ({ key, who, path: `/api/v4${path}` });
  return [
    s('groups anonymous', 'anon', '/groups'),
    s('groups all_available admin', 'admin', '/groups?all_available=true'),
    s('groups page=5000 admin', 'admin', '/groups?page=5000'),
    s('groups order_by=path desc admin', 'admin', '/groups?order_by=path&sort=desc'),
    s('groups order_by=id admin', 'admin', '/groups?order_by=id'),
    s('groups search admin', 'admin', '/groups?search=scale-5'),
    s('groups search anonymous', 'anon', '/groups?search=scale-5'),
    s('groups keyset name admin', 'admin', '/groups?pagination=keyset&order_by=name'),
    s('groups member', 'member', '/groups'),
    s('groups all_available member', 'member', '/groups?all_available=true'),
    s('groups owned member', 'member', '/groups?owned=true'),
    s('subgroups admin', 'admin', `/groups/${groupId}/subgroups`),
    s('group projects admin', 'admin', `/groups/${groupId}/projects`),
    s('group members admin', 'admin', `/groups/${groupId}/members`),
    s('namespaces admin', 'admin', '/namespaces'),
    s('namespaces search admin', 'admin', '/namespaces?search=scale-5'),
    s('namespaces member', 'member', '/namespaces'),
    s('projects admin', 'admin', '/projects'),
    s('projects anonymous', 'anon', '/projects'),
    s('projects member', 'member', '/projects'),
    s('projects membership member', 'member', '/projects?membership=true'),
    s('projects visibility=public admin', 'admin', '/projects?visibility=public'),
    s('projects order_by=name admin', 'admin', '/projects?order_by=name&sort=asc'),
    s('projects order_by=last_activity_at admin', 'admin', '/projects?order_by=last_activity_at'),
    s('projects search selective admin', 'admin', '/projects?search=website'),
    s('projects search admin', 'admin', '/projects?search=project-5'),
    s('projects search anonymous', 'anon', '/projects?search=project-5'),
    s('projects search member', 'member', '/projects?search=project-5'),
    ...farEndScenarios(s),
    ...gitlabDocumentScenarios(),
    s('projects keyset id admin', 'admin', '/projects?pagination=keyset&order_by=id'),
    s('projects keyset id anonymous', 'anon', '/projects?pagination=keyset&order_by=id'),
    s('project members admin', 'admin', `/projects/${projectId}/members`),
    s('environments admin', 'admin', `/projects/${projectId}/environments`),
    s('users admin', 'admin', '/users'),
    s('users search admin', 'admin', '/users?search=scale-user-5'),
    s('runners all admin', 'admin', '/runners/all'),
    s('runner jobs admin', 'admin', `/runners/${runnerId}/jobs`),
    s('broadcast messages admin', 'admin', '/broadcast_messages'),
    s('pages domains admin', 'admin', '/pages/domains'),
  ];
}

/**
 * Selective filters whose every match lies at the far end of the list's order (docs/growth.md#far-end-matches):
 * offset pages, keyset pages and GraphQL connection pages, and a match set above the bounded count's 10,000.
 */
function farEndScenarios(s) {
  const term = `search=${FAR_TERM}`;
  const attr = `custom_attributes[${FAR_ATTRIBUTE.key}]=${FAR_ATTRIBUTE.value}`;
  const gql = (key, who, field) => ({
    key,
    who,
    path: `POST /graphql ${field}`,
    req: () => ({
      method: 'POST',
      path: '/graphql',
      body: { query: `{ ${field} { nodes { id } pageInfo { endCursor } } }` },
    }),
  });
  const first = `(search: "${FAR_TERM}", first: 20)`;
  return [
    s('projects far-end keyset id asc admin', 'admin', `/projects?${term}&pagination=keyset&order_by=id&sort=asc`),
    s('groups far-end keyset name admin', 'admin', `/groups?${term}&pagination=keyset&order_by=name`),
    gql('projects far-end connection admin', 'admin', `projects${first}`),
    gql('groups far-end connection admin', 'admin', `groups${first}`),
    gql('groups far-end connection anonymous', 'anon', `groups${first}`),
    gql('namespaces far-end connection admin', 'admin', `namespaces${first}`),
    gql('users far-end connection admin', 'admin', `users${first}`),
    s('projects far-end big search admin', 'admin', `/projects?search=${BIG_TERM}`),
    s(
      'projects far-end big keyset id asc admin',
      'admin',
      `/projects?search=${BIG_TERM}&pagination=keyset&order_by=id&sort=asc`,
    ),
    s('projects far-end search admin', 'admin', `/projects?${term}`),
    s('projects far-end search anonymous', 'anon', `/projects?${term}`),
    s('projects far-end search member', 'member', `/projects?${term}`),
    s('projects far-end search order_by=name admin', 'admin', `/projects?${term}&order_by=name&sort=asc`),
    s('projects far-end custom_attributes admin', 'admin', `/projects?${attr}`),
    s('groups far-end search admin', 'admin', `/groups?${term}`),
    s('groups far-end search anonymous', 'anon', `/groups?${term}`),
    s('groups far-end custom_attributes admin', 'admin', `/groups?${attr}`),
    s('namespaces far-end search admin', 'admin', `/namespaces?${term}`),
    s('users far-end search admin', 'admin', `/users?${term}`),
    s('users far-end custom_attributes admin', 'admin', `/users?${attr}`),
  ];
}

/**
 * GitLab's own frontend documents, unmodified, as its frontend posts them to `/api/graphql`
 * (docs/growth.md#gitlabs-frontend-documents): the admin runner list (20 runners with jobs, their
 * managers, groups and owner project) and the admin groups page (20 groups with their counts).
 */
function gitlabDocumentScenarios() {
  const doc = (key, rel, variables) => {
    const sent = { ...gitlabDocument(rel), variables };
    return {
      key,
      who: 'admin',
      path: `POST /api/graphql ${path.posix.basename(rel)}`,
      req: () => ({ method: 'POST', path: '/api/graphql', body: sent }),
    };
  };
  return [
    doc('runners GitLab list document admin', RUNNERS_DOC, RUNNERS_VARS),
    doc('groups GitLab admin page document admin', ADMIN_GROUPS_DOC, ADMIN_GROUPS_VARS),
  ];
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/**
 * p50 and p99 (ms) of `n` sequential requests after 3 warm-ups; throws on a non-2xx answer. `route` is
 * a GET path, or `(i) => ({ method, path, body })` for writes (i = request number, for unique names).
 */
async function timeRoute(base, route, token, n) {
  const headers = token ? { 'PRIVATE-TOKEN': token } : {};
  const ms = [];
  for (let i = 0; i < n + 3; i += 1) {
    const req = typeof route === 'function' ? route(i) : { method: 'GET', path: route };
    const init = req.body
      ? {
          method: req.method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(req.body),
        }
      : { method: req.method, headers };
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${base}${req.path}`, init);
    const body = await res.arrayBuffer();
    const t = Number(process.hrtime.bigint() - t0) / 1e6;
    if (!res.ok) throw new Error(`${req.method} ${req.path}: ${res.status}`);
    // a GraphQL error is a 200 too: measuring it would time the error
    if (
      (req.path === '/graphql' || req.path === '/api/graphql') &&
      JSON.parse(Buffer.from(body).toString('utf8')).errors
    )
      throw new Error(`${req.path} ${JSON.stringify(req.body)}: ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
    if (i >= 3) ms.push(t);
  }
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
}

module.exports = { growthContext, growthScenarios, timeRoute };
