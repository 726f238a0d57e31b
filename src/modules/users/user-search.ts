import type { EntityManager } from '@mikro-orm/postgresql';
import { lightEntity, likeEscape, sqlRows } from '../../core/db/sql';
import { filterOf, type ListQuery } from '../../core/pagination/list-sql';
import { User } from './user.entity';

/**
 * GitLab 10.3's User.search on name and username (Gitlab::SQL::Pattern: each word of 3 or more
 * characters matches a substring, all words; a shorter query matches the whole value) or the exact
 * e-mail, ranked exact name, username, e-mail first, then by name.
 */
function searchFilter(search: string, where: string[], params: unknown[]): void {
  const query = search.trim().replace(/\s+/g, ' ');
  const words = query.split(' ').filter((w) => w.length >= 3);
  const match = (col: string) => {
    if (words.length === 0) {
      params.push(likeEscape(query));
      return `${col} ilike ?`;
    }
    for (const w of words) params.push(`%${likeEscape(w)}%`);
    return `(${words.map(() => `${col} ilike ?`).join(' and ')})`;
  };
  const name = match('u.name');
  const username = match('u.username');
  params.push(query);
  where.push(`(${name} or ${username} or lower(u.email) = lower(?))`);
}

/**
 * A list of the users whose ids `ids` selects (an SQL select of user ids), by id; with `search`,
 * those User.search matches, in its rank order (another module's list of users, e.g. a project's team).
 */
export function usersAmongQuery(em: EntityManager, ids: string, search?: string | null): ListQuery<User> {
  const where = [`u.id = any(array(${ids}))`];
  const params: unknown[] = [];
  let from = 'users u';
  let orderBy = 'u.id';
  if (search) {
    // The rank's parameters come first: they sit in the FROM, before the WHERE.
    const q = search.toLowerCase();
    params.push(q, q, q);
    from = `(select u.*, case when u.name = ? then 0 when u.username = ? then 1 when u.email = ? then 2 else 3 end as search_rank from users u) u`;
    orderBy = 'u.search_rank asc, u.name';
    searchFilter(search, where, params);
  }
  return { select: 'u.*', from, where, params, orderBy, dir: 'asc', id: 'u.id', map: (r) => lightEntity(em, User, r) };
}

/** GitLab's Autocomplete::UsersFinder::LIMIT: no pages, the first 20 matches. */
export const AUTOCOMPLETE_USERS_LIMIT = 20;

/**
 * GitLab's user autocomplete over the users whose ids `ids` selects (Autocomplete::UsersFinder): active users
 * only, by name (ties by id), or in User.search's rank order with a search; at most AUTOCOMPLETE_USERS_LIMIT.
 */
export async function autocompleteUsersAmong(em: EntityManager, ids: string, search?: string | null): Promise<User[]> {
  const q = usersAmongQuery(em, ids, search);
  q.where.push(`u.state = 'active'`);
  const order = search ? `${q.orderBy} ${q.dir}, u.id` : 'u.name asc, u.id asc';
  const sql = `select ${q.select} from ${q.from} where ${filterOf(q)} order by ${order} limit ${AUTOCOMPLETE_USERS_LIMIT}`;
  return (await sqlRows(em, sql, q.params)).map(q.map);
}
