import type { RequestCtx } from '../../core/context/request-ctx';
import { lightEntity, likeEscape, pgArray, sqlEntities, sqlRows } from '../../core/db/sql';
import { NotFoundError } from '../../core/errors/domain-errors';
import { offsetPage } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { parseIdOrPath } from '../../core/params/parse-id-or-path';
import { namespaceVisibility } from '../access';
import type { NamespacesArgs } from './namespace.inputs';
import { Namespace } from './namespace.entity';

/** The caller's namespaces: their own, the groups they are a member of (with descendants); admins all. */
async function list(ctx: RequestCtx, args: NamespacesArgs): Promise<Page<Namespace>> {
  const where = [await namespaceVisibility(ctx, 'n')];
  const params: unknown[] = [];
  // the search may match few namespaces anywhere along the ids (docs/growth.md#far-end-matches)
  const selective: string[] = [];
  if (args.search) {
    selective.push('(n.name ilike ? or n.path ilike ?)');
    where.push(selective[0]);
    const term = `%${likeEscape(args.search)}%`;
    params.push(term, term);
  }
  const map = (r: Record<string, unknown>) => lightEntity(ctx.em, Namespace, r);
  return offsetPage(
    ctx.em,
    {
      select: 'n.*',
      from: 'namespaces n',
      where,
      params,
      orderBy: 'n.id',
      dir: 'asc',
      id: 'n.id',
      selective,
      map,
    },
    args,
  );
}

/** By id or URL-decoded full path; anything the caller may not see is 404 Namespace Not Found. */
async function get(ctx: RequestCtx, idOrPath: string): Promise<Namespace> {
  const ref = parseIdOrPath(idOrPath, NAMESPACE_GID_CLASSES);
  if ('none' in ref) throw new NotFoundError('Namespace');
  const [cond, value] = 'id' in ref ? ['n.id = ?', ref.id] : ['lower(n.full_path) = lower(?)', ref.path];
  const [ns] = await sqlEntities(
    ctx.em,
    Namespace,
    `select n.* from namespaces n where ${cond} and ${await namespaceVisibility(ctx, 'n')}`,
    [value],
  );
  if (!ns) throw new NotFoundError('Namespace');
  return ns;
}

/** node(id)/nodes(ids) of user namespaces (groups load as Group): the ones among these ids the caller may see. */
async function visibleUserNamespaces(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<Namespace[]> {
  return sqlEntities(
    ctx.em,
    Namespace,
    `select n.* from namespaces n where n.id = any(?::int[]) and n.kind = 'user' and ${await namespaceVisibility(ctx, 'n')}`,
    [pgArray(ids.map(Number))],
  );
}

/**
 * A group's namespace shares the group's global id (one object in a Relay store or an Apollo cache);
 * a personal namespace is GitLab's `Namespaces::UserNamespace`.
 */
export const NAMESPACE_GID_CLASSES = ['Group', 'Namespaces::UserNamespace'] as const;

/** How many numbered variants `exists` tries for a suggestion (GitLab's Uniquify counts on without bound). */
const SUGGESTION_PROBES = 1000;

/**
 * GET /namespaces/:namespace/exists (later GitLab): whether a namespace has this path among the
 * top-level namespaces (users' and groups') or the children of `parentId`, case-insensitively, and if so
 * the path GitLab's `Namespace.clean_path` would suggest: the path with the first free counter (`my-group1`).
 * Each probe is one lookup in the lower(full_path) unique index; an unknown parent has no children.
 */
async function exists(
  ctx: RequestCtx,
  path: string,
  parentId: number | null | undefined,
): Promise<{ exists: boolean; suggests: string[] }> {
  let prefix = '';
  if (parentId != null) {
    const [parent] = await sqlRows<{ full_path: string }>(ctx.em, 'select full_path from namespaces where id = ?', [
      parentId,
    ]);
    if (!parent) return { exists: false, suggests: [] };
    prefix = `${parent.full_path}/`;
  }
  const [free] = await sqlRows<{ n: number }>(
    ctx.em,
    `select c.n from generate_series(0, ${SUGGESTION_PROBES}) c(n)
     where not exists (select 1 from namespaces where lower(full_path) = lower(? || case when c.n = 0 then '' else c.n::text end))
     order by c.n limit 1`,
    [`${prefix}${path}`],
  );
  if (free && Number(free.n) === 0) return { exists: false, suggests: [] };
  return { exists: true, suggests: free ? [`${path}${Number(free.n)}`] : [] };
}

export const namespaceService = { list, get, visibleUserNamespaces, exists };
