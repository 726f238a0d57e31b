import type { CurrentUser } from '../../core/context/request-ctx';
import { ParamError } from '../../core/errors/domain-errors';
import { databaseIdOf, notAGlobalId, parseGlobalId } from '../../core/graphql/global-id';
import { ACCESS_LEVEL_VALUE, intArray, SortDirection, type VisibilityLevelsEnum } from '../access';
import { PROJECT_DEFAULT_SORT, ProjectOrderBy, type ProjectArchived, type ProjectsArgs } from './project.inputs';
import { projectIdsWithLevel } from './project-sql';
import { namespaceIdsByFullPath, ownedNamespaceIds } from '../namespaces';

// GitLab's later GraphQL arguments of the project lists (ProjectsResolver, ProjectsFinder).

const ORDER_COLUMNS: Record<ProjectOrderBy, string> = {
  ID: 'id',
  NAME: 'name',
  PATH: 'path',
  CREATED_AT: 'created_at',
  UPDATED_AT: 'updated_at',
  LAST_ACTIVITY_AT: 'last_activity_at',
};

const ARCHIVED_SCOPE: Record<ProjectArchived, boolean | undefined> = { EXCLUDE: false, ONLY: true, INCLUDE: undefined };

/** GitLab's ProjectArchived (GraphQL) decides when given; else REST's boolean. */
export const archivedFilter = (args: ProjectsArgs): boolean | undefined =>
  args.archived ? ARCHIVED_SCOPE[args.archived] : args.archivedOnly;

/**
 * GitLab's project sort values (`Project.sort_by_attribute`, Sortable#order_by), case-sensitive as there:
 * a value it does not know leaves the relation unordered, which its keyset connection orders by id, newest first.
 */
const GITLAB_SORTS: Record<string, [string, 'asc' | 'desc']> = {
  id_asc: ['id', 'asc'],
  id_desc: ['id', 'desc'],
  name_asc: ['name', 'asc'],
  name_desc: ['name', 'desc'],
  path_asc: ['path', 'asc'],
  path_desc: ['path', 'desc'],
  created_asc: ['created_at', 'asc'],
  created_desc: ['created_at', 'desc'],
  created_date: ['created_at', 'desc'],
  updated_asc: ['updated_at', 'asc'],
  updated_desc: ['updated_at', 'desc'],
  latest_activity_asc: ['last_activity_at', 'asc'],
  latest_activity_desc: ['last_activity_at', 'desc'],
  stars_asc: ['star_count', 'asc'],
  stars_desc: ['star_count', 'desc'],
  storage_size_asc: ['storage_size', 'asc'],
  storage_size_desc: ['storage_size', 'desc'],
};

export function listOrder(args: ProjectsArgs): { column: string; dir: 'asc' | 'desc' } {
  if (args.sort !== undefined && args.sort !== null) {
    const [column, dir] = GITLAB_SORTS[args.sort] ?? ['id', 'desc'];
    return { column, dir };
  }
  const column = ORDER_COLUMNS[args.orderBy ?? ProjectOrderBy.CREATED_AT];
  return { column, dir: (args.sortDirection ?? PROJECT_DEFAULT_SORT) === SortDirection.ASC ? 'asc' : 'desc' };
}

/** The ids of `gid://gitlab/Project/<id>` values (GitLab's `ids` argument): another class or a malformed one is bad input. */
function projectIdsOf(gids: readonly string[]): number[] {
  return gids.map((gid) => {
    const parsed = parseGlobalId(gid);
    if (!parsed || parsed.gidClass !== 'Project') throw new ParamError(notAGlobalId(gid, ['Project']));
    return databaseIdOf(parsed.key) ?? 0;
  });
}

/** GitLab's later GraphQL filters of the projects list (ProjectsFinder): ids, personal, minAccessLevel, ... */
export function gitlabFilters(
  args: ProjectsArgs,
  user: CurrentUser | null,
  where: string[],
  params: unknown[],
  narrow: (sql: string) => string,
): void {
  if (args.ids) where.push(narrow(`p.id = any(${intArray(projectIdsOf(args.ids))})`));
  // ProjectsFinder#by_personal: the caller's own namespace; no filter for an anonymous caller.
  if (args.personal && user) where.push(narrow(`p.namespace_id in (${ownedNamespaceIds(String(Number(user.id)))})`));
  if (args.minAccessLevel) {
    const level = ACCESS_LEVEL_VALUE[args.minAccessLevel];
    where.push(narrow(user ? `p.id in (${projectIdsWithLevel(Number(user.id), level)})` : 'false'));
  }
  // No repository is kept here, so no project has a detected programming language.
  if (args.programmingLanguageName) where.push('false');
  if (args.visibilityLevel) {
    where.push(narrow('p.visibility_level = ?'));
    params.push(VISIBILITY_OF[args.visibilityLevel]);
  }
  if (args.namespacePath) {
    where.push(narrow(`p.namespace_id = any(array(${namespaceIdsByFullPath()}))`));
    params.push(args.namespacePath);
  }
}

const VISIBILITY_OF: Record<VisibilityLevelsEnum, number> = { private: 0, internal: 10, public: 20 };
