import type { EntityManager } from '@mikro-orm/postgresql';
import { lightEntity, likeEscape, sqlRows } from '../../core/db/sql';
import { filterOf, type ListQuery } from '../../core/pagination/list-sql';
import { User } from './user.entity';

/**
 * GitLab 10.3's User.search on name and username (Gitlab::SQL::Pattern: each word of `minWordLength`
 * (3) or more characters matches a substring, all words; a shorter query matches the whole value) or the
 * exact e-mail, ranked exact name, username, e-mail first, then by name.
 */
function searchFilter(search: string, where: string[], params: unknown[], minWordLength: number): void {
  const query = search.trim().replace(/\s+/g, ' ');
  const words = query.split(' ').filter((w) => w.length >= minWordLength);
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
 * `minWordLength`: the shortest word matched as a substring (GitLab's minimum character limit).
 */
export function usersAmongQuery(
  em: EntityManager,
  ids: string,
  search?: string | null,
  minWordLength = 3,
): ListQuery<User> {
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
    searchFilter(search, where, params, minWordLength);
  }
  return { select: 'u.*', from, where, params, orderBy, dir: 'asc', id: 'u.id', map: (r) => lightEntity(em, User, r) };
}

/** GitLab's Autocomplete::UsersFinder::LIMIT: no pages, the first 20 matches. */
export const AUTOCOMPLETE_USERS_LIMIT = 20;

/**
 * GitLab's user autocomplete (Autocomplete::UsersFinder) for many parents in one statement: `idsOf(k)` is the
 * select of a parent's user ids given the SQL expression `k` of its id, read per parent in a lateral subquery.
 * Active users only, by name (ties by id), or in User.search's rank order with a search (each word a substring,
 * whatever its length); at most
 * AUTOCOMPLETE_USERS_LIMIT each.
 */
export async function autocompleteUsersByKey(
  em: EntityManager,
  keys: readonly number[],
  idsOf: (key: string) => string,
  search?: string | null,
): Promise<Map<number, User[]>> {
  // With a group or project, GitLab's finder matches words of any length as substrings (use_minimum_char_limit: false).
  const q = usersAmongQuery(em, idsOf('parent_keys.k'), search, 1);
  q.where.push(`u.state = 'active'`);
  const order = search ? `${q.orderBy} ${q.dir}, u.id` : 'u.name asc, u.id asc';
  const ids = `'{${keys.map((k) => Math.trunc(Number(k))).join(',')}}'::int[]`;
  const sql = `select parent_keys.k as autocomplete_key, x.* from unnest(${ids}) as parent_keys(k)
    cross join lateral (select ${q.select} from ${q.from} where ${filterOf(q)}
      order by ${order} limit ${AUTOCOMPLETE_USERS_LIMIT}) x`;
  const out = new Map<number, User[]>(keys.map((k) => [Number(k), []]));
  for (const row of await sqlRows(em, sql, q.params)) out.get(Number(row.autocomplete_key))?.push(q.map(row));
  return out;
}
