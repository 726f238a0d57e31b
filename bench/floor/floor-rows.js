// Row → JSON for the floor (GitLab's REST keys, in GitLab's order). Hand-written on purpose.
const crypto = require('node:crypto');
const fs = require('node:fs');

const VIS = { 0: 'private', 10: 'internal', 20: 'public' };

// Project runners tokens are stored sealed (`v1:<iv>:<tag>:<ciphertext>`, AES-256-GCM under a key
// derived from the service's DATA_DIR/secrets.key, see docs/rest.md#runners); admins read them in clear.
const secretsFile = process.env.FLOOR_SECRETS_FILE;
const encKey =
  secretsFile && fs.existsSync(secretsFile)
    ? crypto
        .createHmac('sha256', Buffer.from(fs.readFileSync(secretsFile, 'utf8').trim(), 'hex'))
        .update('encrypt')
        .digest()
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

/**
 * The nested collections of a project page, one query each: namespaces, shares, the owners of personal
 * namespaces and, for ProjectWithAccess (`callerId`), the caller's own memberships. (The bench's data
 * has no forks, so `forked_from_project` is not written here.)
 */
async function nested(q, rows, callerId) {
  const nsIds = [...new Set(rows.map((p) => p.namespace_id))];
  const ids = rows.map((p) => p.id);
  const namespaces = new Map();
  const shares = new Map();
  const owners = new Map();
  const access = new Map();
  if (rows.length === 0) return { namespaces, shares, owners, access };
  for (const n of await q(
    'select id, name, path, kind, full_name, full_path, parent_id, lfs_enabled from namespaces where id = any($1)',
    [nsIds],
  ))
    namespaces.set(n.id, n);
  const ownerRows = await q(
    `select n.id as ns_id, u.id, u.name, u.username, u.state, u.avatar from namespaces n join users u on u.id = n.owner_id where n.id = any($1) and n.kind = 'user'`,
    [nsIds],
  );
  for (const o of ownerRows) owners.set(o.ns_id, o);
  if (callerId != null) {
    const active = (a) => `(${a}.expires_at is null or ${a}.expires_at > current_date)`;
    const perms = await q(
      `select p.id, pm.access_level as pa, gm.access_level as ga from projects p
         left join project_members pm on pm.project_id = p.id and pm.user_id = $2 and ${active('pm')}
         left join group_members gm on gm.group_id = p.namespace_id and gm.user_id = $2 and ${active('gm')}
        where p.id = any($1)`,
      [ids, callerId],
    );
    for (const r of perms) access.set(r.id, r);
  }
  const links = await q(
    `select l.project_id, l.group_id, g.name, g.full_path, l.group_access, to_char(l.expires_at, 'YYYY-MM-DD') as expires_at
       from project_group_links l join namespaces g on g.id = l.group_id where l.project_id = any($1) order by l.id`,
    [ids],
  );
  for (const l of links) {
    if (!shares.has(l.project_id)) shares.set(l.project_id, []);
    shares.get(l.project_id).push(l);
  }
  return { namespaces, shares, owners, access };
}

const memberAccess = (level) => (level == null ? null : { access_level: level, notification_level: 3 });

function projectJson(p, ns, links, ctx, admin, owner, perms) {
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
    _links: linksOf(p, ctx.base),
    archived: p.archived,
    visibility: VIS[p.visibility_level],
  };
  if (owner) {
    out.owner = {
      id: owner.id,
      name: owner.name,
      username: owner.username,
      state: owner.state,
      avatar_url: owner.avatar
        ? `${ctx.base}/uploads/-/system/user/avatar/${owner.id}/${encodeURIComponent(owner.avatar)}`
        : null,
      web_url: `${ctx.base}/${owner.username}`,
    };
  }
  Object.assign(out, {
    resolve_outdated_diff_discussions: p.resolve_outdated_diff_discussions,
    namespace: {
      id: ns.id,
      name: ns.name,
      path: ns.path,
      kind: ns.kind,
      full_path: ns.full_path,
      parent_id: ns.parent_id,
    },
    import_status: 'none',
    import_error: null,
    issues_enabled: p.issues_enabled,
    merge_requests_enabled: p.merge_requests_enabled,
    wiki_enabled: p.wiki_enabled,
    jobs_enabled: p.jobs_enabled,
    snippets_enabled: p.snippets_enabled,
    container_registry_enabled: p.container_registry_enabled,
    shared_runners_enabled: p.shared_runners_enabled,
    lfs_enabled: p.lfs_enabled ?? (ns.kind === 'group' ? (ns.lfs_enabled ?? true) : true),
    creator_id: p.creator_id,
    open_issues_count: p.open_issues_count,
    public_jobs: p.public_jobs,
    ci_config_path: p.ci_config_path,
    shared_with_groups: links.map((l) => ({
      group_id: l.group_id,
      group_name: l.name,
      group_full_path: l.full_path,
      group_access_level: l.group_access,
      expires_at: l.expires_at,
    })),
    only_allow_merge_if_pipeline_succeeds: p.only_allow_merge_if_pipeline_succeeds,
    request_access_enabled: p.request_access_enabled,
    only_allow_merge_if_all_discussions_are_resolved: p.only_allow_merge_if_all_discussions_are_resolved,
    printing_merge_request_link_enabled: p.printing_merge_request_link_enabled,
  });
  if (admin) out.runners_token = unseal(p.runners_token, ['projects', 'runners_token', String(p.id)]);
  if (perms) out.permissions = { project_access: memberAccess(perms.pa), group_access: memberAccess(perms.ga) };
  return out;
}

function linksOf(p, base) {
  const self = `${base}/api/v4/projects/${p.id}`;
  const links = { self };
  if (p.issues_enabled) links.issues = `${self}/issues`;
  if (p.merge_requests_enabled) links.merge_requests = `${self}/merge_requests`;
  return Object.assign(links, {
    repo_branches: `${self}/repository/branches`,
    labels: `${self}/labels`,
    events: `${self}/events`,
    members: `${self}/members`,
  });
}

/** `withAccessFor`: the signed-in caller's id for ProjectWithAccess (`permissions`), else null (Entities::Project). */
async function projectRows(ctx, rows, admin, withAccessFor = null) {
  const { namespaces, shares, owners, access } = await nested(ctx.q, rows, withAccessFor);
  return rows.map((p) =>
    projectJson(
      p,
      namespaces.get(p.namespace_id),
      shares.get(p.id) || [],
      ctx,
      admin,
      owners.get(p.namespace_id),
      withAccessFor == null ? null : access.get(p.id) || {},
    ),
  );
}

module.exports = { groupJson, projectRows, nested, VIS };
