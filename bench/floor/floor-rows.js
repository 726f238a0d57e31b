// Row → JSON for the floor (GitLab's REST keys, in GitLab's order). Hand-written on purpose.
const crypto = require('node:crypto');
const fs = require('node:fs');

const VIS = { 0: 'private', 10: 'internal', 20: 'public' };

// Project runners tokens are stored sealed (`v1:<iv>:<tag>:<ciphertext>`, AES-256-GCM under a key
// derived from the service's DATA_DIR/secrets.key, see README "Runners"); admins read them in clear.
const secretsFile = process.env.FLOOR_SECRETS_FILE;
const encKey = secretsFile && fs.existsSync(secretsFile)
  ? crypto.createHmac('sha256', Buffer.from(fs.readFileSync(secretsFile, 'utf8').trim(), 'hex')).update('encrypt').digest()
  : null;

/** v1: no associated data; v2: sealed for its slot (table, column, row), as the service's secret-box. */
function unseal(v, slot) {
  if (!v || !encKey || !(v.startsWith('v1:') || v.startsWith('v2:'))) return v;
  const [version, iv, tag, body] = v.split(':');
  const d = crypto.createDecipheriv('aes-256-gcm', encKey, Buffer.from(iv, 'base64url'));
  if (version === 'v2') d.setAAD(Buffer.from(JSON.stringify(slot)));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}

function groupJson(g, base) {
  return {
    id: g.id,
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: VIS[g.visibility_level],
    lfs_enabled: g.lfs_enabled ?? true,
    avatar_url: null,
    web_url: `${base}/groups/${g.full_path}`,
    request_access_enabled: g.request_access_enabled,
    full_name: g.full_name,
    full_path: g.full_path,
    parent_id: g.parent_id,
  };
}

/** The two nested collections of a project page, one query each: namespaces and shares. */
async function nested(q, rows) {
  const nsIds = [...new Set(rows.map((p) => p.namespace_id))];
  const ids = rows.map((p) => p.id);
  const namespaces = new Map();
  const shares = new Map();
  if (rows.length === 0) return { namespaces, shares };
  for (const n of await q('select id, name, path, kind, full_name, full_path from namespaces where id = any($1)', [nsIds])) namespaces.set(n.id, n);
  const links = await q(
    `select l.project_id, l.group_id, g.name, g.full_path, l.group_access, to_char(l.expires_at, 'YYYY-MM-DD') as expires_at
       from project_group_links l join namespaces g on g.id = l.group_id where l.project_id = any($1) order by l.id`,
    [ids],
  );
  for (const l of links) {
    if (!shares.has(l.project_id)) shares.set(l.project_id, []);
    shares.get(l.project_id).push(l);
  }
  return { namespaces, shares };
}

function projectJson(p, ns, links, ctx, admin) {
  const full = `${ns.full_path}/${p.path}`;
  const out = {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${ns.kind === 'user' ? ns.name : ns.full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: full,
    created_at: p.created_at.toISOString(),
    default_branch: p.default_branch,
    tag_list: p.tag_list,
    ssh_url_to_repo: `git@${ctx.host}:${full}.git`,
    http_url_to_repo: `${ctx.base}/${full}.git`,
    web_url: `${ctx.base}/${full}`,
    avatar_url: null,
    star_count: p.star_count,
    forks_count: p.forks_count,
    last_activity_at: p.last_activity_at.toISOString(),
    archived: p.archived,
    visibility: VIS[p.visibility_level],
    namespace: { id: ns.id, name: ns.name, path: ns.path, kind: ns.kind },
    issues_enabled: p.issues_enabled,
    merge_requests_enabled: p.merge_requests_enabled,
    wiki_enabled: p.wiki_enabled,
    jobs_enabled: p.jobs_enabled,
    snippets_enabled: p.snippets_enabled,
    container_registry_enabled: p.container_registry_enabled,
    shared_runners_enabled: p.shared_runners_enabled,
    creator_id: p.creator_id,
    open_issues_count: p.open_issues_count,
    public_jobs: p.public_jobs,
    shared_with_groups: links.map((l) => ({
      group_id: l.group_id,
      group_name: l.name,
      group_full_path: l.full_path,
      group_access_level: l.group_access,
      expires_at: l.expires_at,
    })),
    request_access_enabled: p.request_access_enabled,
  };
  if (admin) out.runners_token = unseal(p.runners_token, ['projects', 'runners_token', String(p.id)]);
  return out;
}

async function projectRows(ctx, rows, admin) {
  const { namespaces, shares } = await nested(ctx.q, rows);
  return rows.map((p) => projectJson(p, namespaces.get(p.namespace_id), shares.get(p.id) || [], ctx, admin));
}

module.exports = { groupJson, projectRows, nested, VIS };
