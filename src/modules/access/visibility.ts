import type { RequestCtx } from '../../core/context/request-ctx';
import { activeMembership } from './visibility-sql';
import { policy } from './policy';

// Who may see which namespaces in the namespaces API, as an SQL predicate for the caller of this
// request. The group and project predicates are their owners' (`projectVisibility`, `groupVisibility`
// in the projects module, on the membership fragments of visibility-sql.ts; docs/permissions.md, "Visibility").

/**
 * Predicate on a namespaces alias for the namespaces API: admins all; others their own namespace and
 * the groups they are an active member of, with those groups' descendants (inherited membership).
 */
export async function namespaceVisibility(ctx: RequestCtx, alias: string): Promise<string> {
  if (policy.isAdmin(ctx.user)) return 'true';
  if (!ctx.user) return 'false';
  const uid = Number(ctx.user.id);
  return `(${alias}.owner_id = ${uid} or (${alias}.kind = 'group' and ${alias}.traversal_ids &&
    array(select gm.group_id from group_members gm where gm.user_id = ${uid} and ${activeMembership('gm')})))`;
}
