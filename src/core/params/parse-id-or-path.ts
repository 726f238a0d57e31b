import { INT4_MAX } from './coerce';
/** `:id` of a group or project: all digits → integer id, otherwise a full path (docs/gitlab-compatibility.md, "Path identifiers"). */
export type IdOrPath = { id: number } | { path: string } | { none: true };


export function parseIdOrPath(raw: string | number): IdOrPath {
  const s = String(raw);
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    return n >= 1 && n <= INT4_MAX ? { id: n } : { none: true }; // beyond int4: simply not found
  }
  const path = s.replace(/^\/+|\/+$/g, '');
  return path === '' || path.length > 2000 ? { none: true } : { path };
}
