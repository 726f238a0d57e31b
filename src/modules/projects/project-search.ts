import { anyColumnContains } from '../../core/db/sql';

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
