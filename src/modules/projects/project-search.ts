import { anyColumnContains, likeEscape } from '../../core/db/sql';
import { namespaceSubtreesLike } from '../namespaces';

/**
 * GitLab's `Project.search`: the term in the name, path or description, through the one trigram index
 * `projects_search_trgm` on `name || ' ' || path || ' ' || description` (the expression below must stay
 * the index's: Migration20261207090000_projects_search_trgm).
 */
export function projectSearch(alias: string, term: string): { sql: string; params: string[] } {
  const col = (c: string) => `${alias}.${c}`;
  return anyColumnContains(
    `(${col('name')} || ' ' || ${col('path')} || ' ' || ${col('description')})`,
    [col('name'), col('path'), col('description')],
    term,
  );
}

/**
 * GitLab's `Project.search(term, include_namespace: true)` (the projects list's `searchNamespaces`): the
 * term may also lie in the project's full path (`acme/platform/api`) or full name (`Acme / Platform / API`).
 * Candidates come from the namespaces' trigram indexes: a full path or full name containing the term
 * contains its part before the first `/` inside one namespace's path or name, so the matching namespaces
 * and their descendants (traversal_ids GIN) bound the projects checked against the whole term.
 */
export function projectNamespaceSearch(alias: string, term: string): { sql: string; params: string[] } {
  const own = projectSearch(alias, term);
  const first = term.split('/')[0].trim();
  const like = `%${likeEscape(term)}%`;
  const firstLike = `%${likeEscape(first)}%`;
  const sql = `(${own.sql} or ${alias}.id = any(array(
      select pn.id from projects pn join ${namespaceSubtreesLike('d')} on d.id = pn.namespace_id
      where ((d.full_path || '/' || pn.path) ilike ? or (d.full_name || ' / ' || pn.name) ilike ?))))`;
  return { sql, params: [...own.params, firstLike, firstLike, like, like] };
}
