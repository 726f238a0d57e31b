// The scenarios of `npm run bench` (docs/benchmarks.md#the-floor-comparison-npm-run-bench). `token: null` is anonymous; no token means the administrator's.
// `target`: the least service / floor req/s ratio (0.70 for the 20-row REST lists and the group detail, 0.60
// for the 100-row lists and the GraphQL documents).
// `ratioTo` names the REST scenario whose floor figure is the reference of a GraphQL scenario
// (the floor's REST figure for the same rows); without it the reference is the floor on the same request.
const { DOCS } = require('../floor/graphql-docs');

const gql = (doc) => ({ path: '/graphql', method: 'POST', body: JSON.stringify({ query: doc }) });

// `mask` blanks what legitimately differs between two answers before the byte comparison: a running
// job's duration is measured up to "now", which is not the same instant in both processes.
const RUNNING_DURATION = /("status":"running"[^{}]*?"duration":)[0-9.]+/g;

function scenarios({ detailId, runnerId }) {
  return [
    { key: 'groups-anon', target: 0.7, title: 'GET /groups, anonymous', req: { path: '/api/v4/groups', token: null } },
    {
      key: 'groups-admin',
      target: 0.7,
      title: 'GET /groups?all_available=true, admin',
      req: { path: '/api/v4/groups?all_available=true' },
    },
    {
      key: 'groups-admin-100',
      target: 0.6,
      title: 'GET /groups?all_available=true&per_page=100, admin',
      req: { path: '/api/v4/groups?all_available=true&per_page=100' },
    },
    { key: 'projects-admin', target: 0.7, title: 'GET /projects, admin', req: { path: '/api/v4/projects' } },
    {
      key: 'projects-admin-100',
      target: 0.6,
      title: 'GET /projects?per_page=100, admin',
      req: { path: '/api/v4/projects?per_page=100' },
    },
    {
      key: 'group-detail',
      target: 0.7,
      title: 'GET /groups/:id, admin (detail with projects)',
      req: { path: `/api/v4/groups/${detailId}` },
    },
    {
      key: 'runner-jobs-100',
      target: 0.6,
      title: 'GET /runners/:id/jobs?per_page=100, admin',
      req: { path: `/api/v4/runners/${runnerId}/jobs?per_page=100` },
      mask: RUNNING_DURATION,
    },
    {
      key: 'gql-groups',
      target: 0.6,
      title: 'POST /graphql groups (20 rows), admin',
      req: gql(DOCS.groups),
      ratioTo: 'groups-admin',
    },
    {
      key: 'gql-projects',
      target: 0.6,
      title: 'POST /graphql projects (20 rows), admin',
      req: gql(DOCS.projects),
      ratioTo: 'projects-admin',
    },
    {
      key: 'gql-dashboard',
      target: 0.6,
      title: 'POST /graphql groups → projects → shares (20 groups), admin',
      req: gql(DOCS.dashboard),
    },
  ];
}

module.exports = { scenarios };
