import type { RequestCtx } from '../../core/context/request-ctx';
import { lightEntity, likeEscape, pgArray, sqlEntities } from '../../core/db/sql';
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

export const namespaceService = { list, get, visibleUserNamespaces };
