import type { CurrentUser, RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { AUDIT_CHANNEL } from '../../core/events/audit';
import { auditDetails, auditRows, type AuditRow } from '../../core/events/audit-targets';
import { liveIterator } from '../../core/events/live';
import { globalIdOf } from '../../core/graphql/global-id';
import { policy, VISIBILITY_LEVEL, Visibility } from '../access';
import { groupIdsWhere, type Namespace } from '../namespaces';
import { groupVisibilitySplit } from '../projects';
import { GroupChangeAction } from './group-change.type';

/** What Subscription.groupChanged delivers. */
export interface GroupChange {
  action: GroupChangeAction;
  /** The group's global id (`gid://gitlab/Group/<id>`), as `Group.id`. */
  groupId: string;
  databaseId: number;
  group: Namespace | null;
}

/** A group an audit notification names: what its events say, before any subscriber's rule is applied. */
interface GroupTarget {
  databaseId: number;
  created: boolean;
  deleted: boolean;
  /** Its visibility level before this change, when the change was one of visibility (or a deletion). */
  levelBefore: number | null;
}

const LEVELS: Record<string, number> = {
  [Visibility.PRIVATE.toLowerCase()]: VISIBILITY_LEVEL.PRIVATE,
  [Visibility.INTERNAL.toLowerCase()]: VISIBILITY_LEVEL.INTERNAL,
  [Visibility.PUBLIC.toLowerCase()]: VISIBILITY_LEVEL.PUBLIC,
};

/**
 * The groups whose own events a notification carries (entity and target a Group: created, updated,
 * moved, deleted, shared with another group), in event order. Events of members or projects are not
 * group changes (their counts are not streamed).
 */
function groupTargets(rows: AuditRow[]): GroupTarget[] {
  const out = new Map<number, GroupTarget>();
  for (const row of rows) {
    const d = auditDetails(row);
    if (row.entity_type !== 'Group' || d.target_type !== 'Group') continue;
    const databaseId = Number(row.entity_id);
    const t = out.get(databaseId) ?? { databaseId, created: false, deleted: false, levelBefore: null };
    t.created ||= d.add === 'group';
    t.deleted ||= d.remove === 'group';
    if (d.change === 'visibility_level' && typeof d.from === 'string') t.levelBefore ??= LEVELS[d.from] ?? null;
    const state = d.target_state as { visibility_level?: number } | undefined;
    if (t.deleted && typeof state?.visibility_level === 'number') t.levelBefore ??= state.visibility_level;
    out.set(databaseId, t);
  }
  return [...out.values()];
}

/** Whether a group's level alone lets this user see it (public; internal for users who are not external). */
const seesByLevel = (level: number | null, user: CurrentUser) =>
  level !== null && (level >= VISIBILITY_LEVEL.PUBLIC || (level >= VISIBILITY_LEVEL.INTERNAL && !user.external));

/**
 * The groups a user who is not an administrator sees through membership rather than by level (members
 * of a private group or its ancestors, shares, projects inside): bounded by their memberships, unlike the
 * groups seen by level, which a deletion's recorded level answers for (docs/graphql.md, groupChanged).
 */
async function seenThroughMembership(ctx: RequestCtx, id: number | null): Promise<Set<number>> {
  const split = await groupVisibilitySplit(ctx, 'n');
  if (!split) return new Set();
  const rows = await sqlRows<{ id: number }>(ctx.em, groupIdsWhere(split[1], id !== null), id === null ? [] : [id]);
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Subscription.groupChanged: each group created, changed or deleted (REST or GraphQL, on any instance),
 * fed by the audit events' commit NOTIFY and loaded as it is at delivery with the subscriber's
 * visibility (`group(id)`'s rule: administrators every group). A group the subscriber may not see is
 * not announced; one it could see and no longer can (deleted, made private, …) is announced DELETED
 * without data. "Could see" is remembered: by level (a deletion records the level it had, a visibility
 * change its previous one) or through membership (the set taken at subscription, and every group
 * delivered since).
 */
export async function groupChanges(
  ctx: RequestCtx,
  id: number | null | undefined,
): Promise<AsyncIterableIterator<GroupChange & { target: GroupTarget }>> {
  const only = id ?? null;
  const known = policy.isAdmin(ctx.user) ? new Set<number>() : await seenThroughMembership(ctx, only);
  return liveIterator(ctx, AUDIT_CHANNEL, {
    async select(payload, memo, viewer) {
      const targets = await memo.once('group-targets', async () =>
        groupTargets(await auditRows(ctx.em, payload, memo)),
      );
      return (
        targets
          .filter((t) => only === null || t.databaseId === only)
          // A deleted group nobody told this subscriber of costs it nothing more.
          .filter(
            (t) =>
              !t.deleted || policy.isAdmin(viewer) || known.has(t.databaseId) || seesByLevel(t.levelBefore, viewer),
          )
          // Each subscriber's own record: `visible` completes it with what this subscriber may see.
          .map((target): GroupChange & { target: GroupTarget } => ({
            target,
            action: GroupChangeAction.DELETED,
            groupId: globalIdOf('Group', target.databaseId),
            databaseId: target.databaseId,
            group: null,
          }))
      );
    },
    async visible(fresh, change) {
      const user = fresh.user!;
      const { target } = change;
      const group = target.deleted ? null : await fresh.loaders.visibleGroup.load(target.databaseId);
      if (group) {
        if (!policy.isAdmin(user) && !seesByLevel(group.visibilityLevel, user)) known.add(group.id);
        else known.delete(group.id);
        change.group = group;
        change.action = target.created ? GroupChangeAction.CREATED : GroupChangeAction.UPDATED;
        return true;
      }
      // Gone from this subscriber's view: told only to those who could see it before.
      const couldSee = known.delete(target.databaseId) || policy.isAdmin(user) || seesByLevel(target.levelBefore, user);
      return couldSee && !(target.created && !target.deleted);
    },
  });
}
