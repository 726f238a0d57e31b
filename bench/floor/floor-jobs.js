// GET /runners/:id/jobs for the floor: one count, one page query, then one batched query
// each for the page's users, pipelines with their commits, and projects with their namespaces.
// Hand-written JSON in GitLab's JobBasicWithProject key order.
const iso = (d) => (d === null ? null : d.toISOString());

function userJson(u, base) {
  return {
    id: u.id,
    name: u.name,
    username: u.username,
    state: u.state,
    avatar_url: null,
    web_url: `${base}/${u.username}`,
    created_at: iso(u.created_at),
    bio: u.bio,
    location: u.location,
    skype: u.skype,
    linkedin: u.linkedin,
    twitter: u.twitter,
    website_url: u.website_url,
    organization: u.organization,
  };
}

function commitJson(c) {
  return {
    id: c.sha,
    short_id: c.sha.slice(0, 8),
    title: c.title,
    created_at: iso(c.committed_date),
    parent_ids: c.parent_ids,
    message: c.message,
    author_name: c.author_name,
    author_email: c.author_email,
    authored_date: iso(c.authored_date),
    committer_name: c.committer_name,
    committer_email: c.committer_email,
    committed_date: iso(c.committed_date),
  };
}

function projectJson(p) {
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${p.ns_kind === 'user' ? p.ns_name : p.ns_full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: `${p.ns_full_path}/${p.path}`,
    created_at: iso(p.created_at),
  };
}

const byId = (rows, key = 'id') => new Map(rows.map((r) => [r[key], r]));

function jobJson(j, m, now) {
  const pl = m.pipelines.get(j.pipeline_id);
  const end = j.finished_at ?? now;
  return {
    id: j.id,
    status: j.status,
    stage: j.stage,
    name: j.name,
    ref: j.ref,
    tag: j.tag,
    coverage: j.coverage,
    created_at: iso(j.created_at),
    started_at: iso(j.started_at),
    finished_at: iso(j.finished_at),
    duration: j.started_at ? (end.getTime() - j.started_at.getTime()) / 1000 : null,
    user: j.user_id === null ? null : userJson(m.users.get(j.user_id), m.base),
    commit: pl.c_sha === null ? null : commitJson({ ...pl, sha: pl.c_sha }),
    pipeline: { id: pl.id, sha: pl.sha, ref: pl.ref, status: pl.status },
    project: projectJson(m.projects.get(j.project_id)),
  };
}

/** Admin callers only (the service shows specific runners to their projects' members, out of the floor's scope). */
function runnerJobsHandler(ctx, page, pageHeaders) {
  const { q, base } = ctx;
  return async (req, res) => {
    if (!req.caller?.admin) return res.status(501).json({ message: 'floor: admin only' });
    const id = Number(req.params.id);
    const [runner] = await q('select id from ci_runners where id = $1', [id]);
    if (!runner) return res.status(404).json({ message: '404 Runner Not Found' });
    const p = page(req);
    const [{ n }] = await q('select count(*) as n from ci_builds where runner_id = $1', [id]);
    const jobs = await q(
      `select * from ci_builds where runner_id = $1 order by id limit ${p.perPage} offset ${p.offset}`,
      [id],
    );
    const ids = (k) => [...new Set(jobs.map((j) => j[k]).filter((v) => v !== null))];
    const [users, pipelines, projects] = await Promise.all([
      q('select * from users where id = any($1)', [ids('user_id')]),
      q(
        `select pl.id, pl.sha, pl.ref, pl.status, c.sha as c_sha, c.title, c.message, c.author_name, c.author_email, c.authored_date,
                c.committer_name, c.committer_email, c.committed_date, c.parent_ids
           from ci_pipelines pl left join ci_commits c on c.project_id = pl.project_id and c.sha = pl.sha where pl.id = any($1)`,
        [ids('pipeline_id')],
      ),
      q(
        `select p.id, p.description, p.name, p.path, p.created_at, n.kind as ns_kind, n.name as ns_name, n.full_name as ns_full_name,
                n.full_path as ns_full_path from projects p join namespaces n on n.id = p.namespace_id where p.id = any($1)`,
        [ids('project_id')],
      ),
    ]);
    const m = { base, users: byId(users), pipelines: byId(pipelines), projects: byId(projects) };
    const now = new Date();
    pageHeaders(res, Number(n), p);
    res.json(jobs.map((j) => jobJson(j, m, now)));
  };
}

module.exports = { runnerJobsHandler };
