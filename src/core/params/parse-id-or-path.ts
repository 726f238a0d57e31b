import { INT4_MAX } from './coerce';
import { GID_PREFIX, databaseIdOf, notAGlobalId, parseGlobalId } from '../graphql/global-id';
import { ParamError } from '../errors/domain-errors';

/**
 * `:id` of a group or project: all digits → integer id, otherwise a full path (docs/gitlab-compatibility.md,
 * "Path identifiers"); on GraphQL also a global id of one of `gidClasses` (`gid://gitlab/Group/7`,
 * docs/graphql.md#global-ids-and-lookups). A full path never contains `:`, so a gid is never a path; REST
 * passes a `gid://` value on as a path (core/params/coerce.ts), which no group has: 404 as GitLab.
 */
export type IdOrPath = { id: number } | { path: string } | { none: true };

export function parseIdOrPath(raw: string | number | IdOrPath, gidClasses: readonly string[] = []): IdOrPath {
  if (typeof raw === 'object') return raw;
  const s = String(raw);
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    return n >= 1 && n <= INT4_MAX ? { id: n } : { none: true }; // beyond int4: simply not found
  }
  if (s.startsWith(GID_PREFIX)) {
    const gid = parseGlobalId(s);
    if (!gid || !gidClasses.includes(gid.gidClass)) throw new ParamError(notAGlobalId(s, gidClasses));
    const id = databaseIdOf(gid.key);
    return id === undefined ? { none: true } : { id };
  }
  const path = s.replace(/^\/+|\/+$/g, '');
  return path === '' || path.length > 2000 ? { none: true } : { path };
}

/**
 * GraphQL's `group(id, fullPath)` / `project(id, fullPath)`: exactly one of them. `fullPath` is always
 * a full path (GitLab's lookup, even when it is all digits); `id` is read as above.
 */
export function idOrFullPath(
  id: string | null | undefined,
  fullPath: string | null | undefined,
  gidClasses: readonly string[],
): IdOrPath {
  if ((id == null) === (fullPath == null)) throw new ParamError('Give exactly one of id and fullPath');
  if (id != null) return parseIdOrPath(id, gidClasses);
  const path = fullPath!.replace(/^\/+|\/+$/g, '');
  return path === '' || path.length > 2000 ? { none: true } : { path };
}
