// The floor's answer to the bench's three fixed GraphQL documents (graphql-docs.js), hand-written with
// the same queries as its REST routes: GraphQL's JSON is the REST JSON with camelCase keys and enum names.
const { DOCS } = require('./graphql-docs');
const { groupJson, projectRows } = require('./floor-rows');

const camel = (k) => k.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

function toGraphql(v) {
  if (Array.isArray(v)) return v.map(toGraphql);
  if (v === null || typeof v !== 'object') return v;
  const out = {};
  for (const [k, x] of Object.entries(v)) out[camel(k)] = k === 'visibility' ? x.toUpperCase() : toGraphql(x);
  return out;
}

/** GitLab's rule, as the service: counted up to 10,000, null above (docs/growth.md#broad-search-terms-exact-counts-stay). */
const bounded = (n) => (Number(n) > 10000 ? null : Number(n));

function graphqlHandler(ctx, visibility) {
  const { q, base } = ctx;
  async function groupPage(req) {
    const where = `n.kind = 'group' and ${visibility(req, 'n')}`;
    const [{ n }] = await q(`select count(*) as n from (select 1 from namespaces n where ${where} limit 10001) c`);
    const rows = await q(`select n.* from namespaces n where ${where} order by n.name asc, n.id asc limit 20`);
    return { total: bounded(n), rows };
  }
  const answers = {
    async groups(req) {
      const { total, rows } = await groupPage(req);
      return { groups: { count: total, nodes: rows.map((g) => toGraphql(groupJson(g, base))) } };
    },
    async projects(req) {
      const vis = visibility(req, 'p');
      const [{ n }] = await q(`select count(*) as n from (select 1 from projects p where ${vis} limit 10001) c`);
      const rows = await q(`select p.* from projects p where ${vis} order by p.created_at desc, p.id desc limit 20`);
      const nodes = await projectRows(ctx, rows, Boolean(req.caller?.admin));
      // GraphQL keeps runnersToken (null when hidden) at its place in the selection: last.
      // The document selects the fields the REST answer had before GitLab 10.3's additions (graphql-docs.js).
      const selected = nodes.map(
        ({
          _links,
          owner,
          resolve_outdated_diff_discussions,
          import_status,
          import_error,
          lfs_enabled,
          ci_config_path,
          only_allow_merge_if_pipeline_succeeds,
          only_allow_merge_if_all_discussions_are_resolved,
          printing_merge_request_link_enabled,
          ...p
        }) => ({
          ...p,
          namespace: { id: p.namespace.id, name: p.namespace.name, path: p.namespace.path, kind: p.namespace.kind },
        }),
      );
      return {
        projects: {
          count: bounded(n),
          nodes: selected.map((p) => toGraphql({ ...p, runners_token: p.runners_token ?? null })),
        },
      };
    },
    async dashboard(req) {
      const { total, rows } = await groupPage(req);
      // The document's limits: 50 projects per group, 5 shares per project.
      const projects = await q(
        `select x.* from unnest($1::int[]) k(id) cross join lateral (
           select p.id, p.name, p.path, p.namespace_id, p.visibility_level from projects p
            where p.namespace_id = k.id and ${visibility(req, 'p')} order by p.id limit 50) x`,
        [rows.map((g) => g.id)],
      );
      const links = await q(
        `select x.* from unnest($1::int[]) k(id) cross join lateral (
           select l.project_id, l.group_id, g.full_path, l.group_access from project_group_links l join namespaces g on g.id = l.group_id
            where l.project_id = k.id order by l.id limit 5) x`,
        [projects.map((p) => p.id)],
      );
      const byGroup = new Map(rows.map((g) => [g.id, []]));
      const byProject = new Map(projects.map((p) => [p.id, []]));
      for (const l of links)
        byProject
          .get(l.project_id)
          .push({ groupId: l.group_id, groupFullPath: l.full_path, groupAccessLevel: l.group_access });
      const paths = new Map(rows.map((g) => [g.id, g.full_path]));
      for (const p of projects) {
        byGroup.get(p.namespace_id).push({
          id: p.id,
          name: p.name,
          pathWithNamespace: `${paths.get(p.namespace_id)}/${p.path}`,
          visibility: ['PRIVATE', 'INTERNAL', 'PUBLIC'][p.visibility_level / 10],
          sharedWithGroups: byProject.get(p.id),
        });
      }
      return {
        groups: {
          count: total,
          // Group.projects is a connection: its page under `nodes`.
          nodes: rows.map((g) => ({ id: g.id, fullPath: g.full_path, projects: { nodes: byGroup.get(g.id) } })),
        },
      };
    },
  };
  const byText = new Map(Object.entries(DOCS).map(([name, text]) => [text, answers[name]]));
  return async (req, res) => {
    const answer = byText.get(req.body && req.body.query);
    if (!answer) return res.status(400).json({ errors: [{ message: 'floor: only the bench documents' }] });
    if (req.caller && !req.caller.admin)
      return res.status(501).json({ errors: [{ message: 'floor: admin or anonymous only' }] });
    // Apollo ends its JSON with a newline.
    res.type('application/json').send(`${JSON.stringify({ data: await answer(req) })}\n`);
  };
}

module.exports = { graphqlHandler };
