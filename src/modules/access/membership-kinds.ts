import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeleteTarget } from '../../core/db/delete-claim';
import { sqlRows } from '../../core/db/sql';
import { NotFoundError } from '../../core/errors/domain-errors';
import { AccessLevel } from './access-level';
import { GroupMember, ProjectMember } from './member.entity';
import { activeMembership, intArray } from './visibility-sql';

// Memberships of a group or a project as the members module reads and writes them
// (docs/architecture.md, "Tables"): the rows with their source, GitLab's inherited member lists, one
// membership by source and user, and the last-Owner rule's counts.

export type MembershipKind = 'group' | 'project';

const TABLE = { group: 'group_members', project: 'project_members' } as const;
const SOURCE = { group: 'group_id', project: 'project_id' } as const;

/** The column naming a membership's group or project. */
export const membershipSourceColumn = (kind: MembershipKind) => SOURCE[kind];

/** A row source: the direct memberships of `kind` with their source (`source_type`, `source_id`). */
export const directMemberships = (kind: MembershipKind) =>
  `(select x.*, '${kind}'::text as source_type, x.${SOURCE[kind]} as source_id from ${TABLE[kind]} x)`;

/** Membership columns of a union branch. */
const MEMBER_COLS = (a: string) =>
  `${a}.id, ${a}.user_id, ${a}.access_level, ${a}.expires_at, ${a}.created_at, ${a}.updated_at`;

/**
 * A row source of member lists per list key (`list_key`: the group or project id) with relations: the
 * direct memberships and/or those of the groups above (a group's ancestors; a project's group and its
 * ancestors) and/or those of linked groups (`linked`), active ones only for inherited and linked rows
 * (an expired one grants nothing), one row per user:
 * the highest access level, then the later expiry (none first), then the older membership, as GitLab's
 * MembersFinder (`DISTINCT ON (user_id) … ORDER BY access_level DESC, expires_at DESC, created_at`).
 * `sources` is the list keys' rows with their ancestry, as `s`: for groups `id, traversal_ids`
 * (namespaces' `groupAncestryRows`), for projects `id, namespace_kind, traversal_ids` (projects'
 * `projectAncestryRows`).
 * `linked`: groups whose members the list shows through a link (GitLab's INVITED_GROUPS,
 * SHARED_INTO_ANCESTORS), each a row source per `s` with `group_id` and `access_cap` (the link's
 * access), written by the modules owning the links and filtered there by the caller's visibility; their
 * active members are listed at the lower of their own level and the cap, as GitLab's MembersFinder.
 * Filtering on `list_key` is pushed into the DISTINCT ON subquery (a DISTINCT ON column), so one list
 * reads only its own ancestors' rows.
 */
export function memberListRows(
  kind: MembershipKind,
  relations: { direct: boolean; inherited: boolean },
  sources: string,
  linked: readonly string[] = [],
): string {
  const { direct, inherited } = relations;
  const branches: string[] = [];
  if (kind === 'group') {
    const which = direct && inherited ? '' : direct ? ' and gm.group_id = s.id' : ' and gm.group_id <> s.id';
    branches.push(`select ${MEMBER_COLS('gm')}, 'group'::text as source_type, gm.group_id as source_id from group_members gm
      where gm.group_id = any(s.traversal_ids)${which} and (gm.group_id = s.id or ${activeMembership('gm')})`);
  } else {
    if (direct)
      branches.push(
        `select ${MEMBER_COLS('pm')}, 'project'::text as source_type, pm.project_id as source_id from project_members pm where pm.project_id = s.id`,
      );
    if (inherited)
      branches.push(`select ${MEMBER_COLS('gm')}, 'group'::text as source_type, gm.group_id as source_id from group_members gm
      where s.namespace_kind = 'group' and gm.group_id = any(s.traversal_ids) and ${activeMembership('gm')}`);
  }
  for (const rows of linked)
    branches.push(`select lm.id, lm.user_id, least(lm.access_level, lg.access_cap) as access_level, lm.expires_at,
      lm.created_at, lm.updated_at, 'group'::text as source_type, lm.group_id as source_id
      from (${rows}) lg join group_members lm on lm.group_id = lg.group_id where ${activeMembership('lm')}`);
  return `(select distinct on (s.id, x.user_id) s.id as list_key, x.* from ${sources} cross join lateral (${branches.join(' union all ')}) x
     order by s.id, x.user_id, x.access_level desc, x.expires_at desc, x.created_at, x.id)`;
}

/** A new, unsaved membership of the group or project (the caller patches and persists it). */
export const newMembership = (kind: MembershipKind, sourceId: number): GroupMember | ProjectMember =>
  kind === 'group'
    ? Object.assign(new GroupMember(), { groupId: sourceId })
    : Object.assign(new ProjectMember(), { projectId: sourceId });

/** The user's membership of the group or project, managed by `em` (throws when there is none). */
export const getMembership = (
  em: EntityManager,
  kind: MembershipKind,
  sourceId: number,
  userId: number,
): Promise<GroupMember | ProjectMember> =>
  kind === 'group'
    ? em.findOneOrFail(GroupMember, { groupId: sourceId, userId })
    : em.findOneOrFail(ProjectMember, { projectId: sourceId, userId });

/** The claim (delete-claim's target) of the user's membership of the group or project: 404 Member when missing. */
export const membershipClaim = (kind: MembershipKind, sourceId: number, userId: number): DeleteTarget => ({
  table: TABLE[kind],
  where: `${SOURCE[kind]} = ? and user_id = ?`,
  params: [sourceId, userId],
  missing: () => new NotFoundError('Member'),
});

/** Deletes the user's membership of the group or project. */
export async function deleteMembership(
  em: EntityManager,
  kind: MembershipKind,
  sourceId: number,
  userId: number,
): Promise<void> {
  await sqlRows(em, `delete from ${TABLE[kind]} where ${SOURCE[kind]} = ? and user_id = ?`, [sourceId, userId]);
}

/** For the last-Owner rule: how many other active Owners the group has, and whether the user is an Owner. */
export async function groupOwners(
  em: EntityManager,
  groupId: number,
  userId: number,
): Promise<{ others: number; isOwner: boolean }> {
  const rows = await sqlRows<{ others: string; is_owner: boolean }>(
    em,
    `select count(*) filter (where gm.user_id <> ? and gm.access_level = ${AccessLevel.OWNER} and ${activeMembership('gm')}) as others,
            bool_or(gm.user_id = ? and gm.access_level = ${AccessLevel.OWNER}) as is_owner
       from group_members gm where gm.group_id = ?`,
    [userId, userId, groupId],
  );
  return { others: Number(rows[0]?.others ?? 0), isOwner: rows[0]?.is_owner === true };
}

/**
 * Of the groups `ids`, those the user may leave (GitLab's `canLeave`): they hold a direct, unexpired
 * membership and are not the group's last Owner (the last-Owner rule above). One statement for a page.
 */
export const groupsUserMayLeave = (userId: number, ids: readonly number[]) =>
  `select gm.group_id from group_members gm
    where gm.user_id = ${Math.trunc(userId)} and gm.group_id = any(${intArray(ids)}) and ${activeMembership('gm')}
      and (gm.access_level < ${AccessLevel.OWNER} or exists (select 1 from group_members o
        where o.group_id = gm.group_id and o.user_id <> gm.user_id and o.access_level = ${AccessLevel.OWNER} and ${activeMembership('o')}))`;

/** Inserts the user's membership of the group or project at `level`, without expiry (an approved access request). */
export async function insertMembership(
  em: EntityManager,
  kind: MembershipKind,
  sourceId: number,
  userId: number,
  level: number,
  now: Date,
): Promise<void> {
  await sqlRows(
    em,
    `insert into ${TABLE[kind]} (${SOURCE[kind]}, user_id, access_level, expires_at, created_at, updated_at) values (?, ?, ?, null, ?, ?)`,
    [sourceId, userId, level, now, now],
  );
}
