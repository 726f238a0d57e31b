import type { RequestCtx } from '../../core/context/request-ctx';
import { likeEscape } from '../../core/db/sql';
import { pgTime } from '../../core/db/pg-time';
import { offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { directMemberships, maxGroupLevel, memberListRows, membershipSourceColumn } from '../access';
import { avatarUrl } from '../avatars';
import { groupsSharedIntoRows } from '../groups';
import { groupAncestryRows, joinNamespace } from '../namespaces';
import { groupVisibility, memberProjects, projectAncestryRows, projectInvitedGroupRows } from '../projects';
import { joinUser, userWebUrl } from '../users';
import {
  accessLevelOf,
  MemberRelation,
  type MemberListArgs,
  type MemberSort,
  type MemberSourceType,
  type MemberType,
} from './member.type';

// The member lists of groups and projects (GitLab's GroupMembersFinder and MembersFinder): their rows,
// relations, sorts and batches. The members service reads single memberships with the same columns.

export type SourceKind = 'group' | 'project';

export type Row = Record<string, unknown> & {
  member_id: number;
  user_id: number;
  username: string;
  name: string;
  state: string;
  avatar: string | null;
  access_level: number;
  expires_at: string | null;
  created_at: string | Date;
  source_type: MemberSourceType;
  source_id: number;
};

/**
 * A membership row, the same in every list that shows it (whether it is inherited there is its source
 * compared with the listed one). `id` is the membership row's id: core makes it the global id (GroupMember or ProjectMember by
 * `sourceType`, the members module's `nodes`) and `databaseId`.
 */
export function view(ctx: RequestCtx, r: Row): MemberType {
  const sourceId = Number(r.source_id);
  const level = Number(r.access_level);
  return {
    id: Number(r.member_id),
    userId: Number(r.user_id),
    username: r.username,
    name: r.name,
    state: r.state,
    avatarUrl: avatarUrl(ctx.externalUrl, 'user', Number(r.user_id), r.avatar),
    webUrl: userWebUrl(ctx.externalUrl, r.username),
    accessLevel: accessLevelOf(level),
    accessLevelValue: level,
    expiresAt: r.expires_at,
    createdAt: pgTime(r.created_at),
    sourceType: r.source_type,
    sourceId,
  };
}

/** Over `m` (a membership row with source_type and source_id) joined to `u` (users). */
export const COLUMNS = `m.id as member_id, m.user_id, u.username, u.name, u.state, u.avatar, m.access_level,
  to_char(m.expires_at, 'YYYY-MM-DD') as expires_at, m.created_at, m.source_type, m.source_id`;

/**
 * The groups whose members a project's list shows through a share (GitLab's MembersFinder), per source
 * row `s` (`projectAncestryRows`): rows `group_id, access_cap`, the groups the caller may see, or all of
 * them for a member of the project (INVITED_GROUPS) or of its group (SHARED_INTO_ANCESTORS), as GitLab.
 * Listing only: what a share grants is decided elsewhere, and group shares grant nothing here.
 */
async function linkedGroupRows(ctx: RequestCtx, relations: ReadonlySet<MemberRelation>): Promise<string[]> {
  const rows: string[] = [];
  const visible = await groupVisibility(ctx, 'g');
  if (relations.has(MemberRelation.INVITED_GROUPS)) {
    const member = await memberProjects(ctx, 's');
    rows.push(`select x.group_id, x.access_cap from (${projectInvitedGroupRows('s.id')}) x ${joinNamespace('x.group_id', 'g')}
      where (${member} or ${visible})`);
  }
  if (relations.has(MemberRelation.SHARED_INTO_ANCESTORS)) {
    const member = ctx.user ? `${maxGroupLevel(Number(ctx.user.id), 's.traversal_ids')} > 0` : 'false';
    rows.push(`select x.group_id, x.access_cap from (${groupsSharedIntoRows('s.traversal_ids')}) x ${joinNamespace('x.group_id', 'g')}
      where s.namespace_kind = 'group' and (${member} or ${visible})`);
  }
  return rows;
}

/** The member lists of `kind` with relations, joined to their users `u` (access's `memberListRows`). */
async function relationsFrom(
  ctx: RequestCtx,
  kind: SourceKind,
  relations: ReadonlySet<MemberRelation>,
): Promise<string> {
  const sources = kind === 'group' ? groupAncestryRows('s') : projectAncestryRows('s');
  const which = { direct: relations.has(MemberRelation.DIRECT), inherited: relations.has(MemberRelation.INHERITED) };
  const linked = kind === 'project' ? await linkedGroupRows(ctx, relations) : [];
  return `${memberListRows(kind, which, sources, linked)} m ${joinUser('m.user_id')}`;
}

/** GitLab's default member list (GroupMembersFinder/MembersFinder DEFAULT_RELATIONS); also GitLab's `members/all`. */
export const DEFAULT_RELATIONS: ReadonlySet<MemberRelation> = new Set([
  MemberRelation.DIRECT,
  MemberRelation.INHERITED,
]);
/** The REST member lists (GitLab 10.3's `GET …/members`): the source's own memberships. */
export const DIRECT_ONLY: ReadonlySet<MemberRelation> = new Set([MemberRelation.DIRECT]);

/** The relations asked for: omitted, null and an empty list are GitLab's default, as the argument's default says. */
function relationSet(relations: readonly MemberRelation[] | null | undefined): ReadonlySet<MemberRelation> {
  return relations?.length ? new Set(relations) : DEFAULT_RELATIONS;
}

/**
 * GitLab's MemberSort (Member.sort_by_attribute): a membership column or the user's name; ties by the
 * list's key (the membership, or the user in a list across levels), in the same direction.
 */
const SORTS: Record<MemberSort, [string, 'asc' | 'desc']> = {
  ACCESS_LEVEL_ASC: ['m.access_level', 'asc'],
  ACCESS_LEVEL_DESC: ['m.access_level', 'desc'],
  USER_FULL_NAME_ASC: ['u.name', 'asc'],
  USER_FULL_NAME_DESC: ['u.name', 'desc'],
  CREATED_ASC: ['m.created_at', 'asc'],
  CREATED_DESC: ['m.created_at', 'desc'],
  UPDATED_ASC: ['m.updated_at', 'asc'],
  UPDATED_DESC: ['m.updated_at', 'desc'],
};

/**
 * A member list: DIRECT alone reads the membership table as before (the REST lists); other relations
 * the per-user union above, ordered by membership id then user id (ids of two tables may meet), or by
 * `sort`. A list is one source's memberships (its own, its ancestors' and linked groups'), read through
 * the membership tables' source indexes and sorted as a whole: no index orders a union of tables.
 */
export async function memberListQuery(
  ctx: RequestCtx,
  kind: SourceKind,
  relations: ReadonlySet<MemberRelation>,
  search: string | null | undefined,
  sort?: MemberSort | null,
): Promise<ListQuery<MemberType> & { key: string }> {
  const directOnly = relations.size === 1 && relations.has(MemberRelation.DIRECT);
  const where: string[] = [];
  const params: unknown[] = [];
  if (search) {
    where.push('(u.username ilike ? or u.name ilike ?)');
    const term = `%${likeEscape(search)}%`;
    params.push(term, term);
  }
  const map = (r: Record<string, unknown>) => view(ctx, r as Row);
  const [orderBy, dir] = sort ? SORTS[sort] : ['m.id', 'asc' as const];
  if (directOnly) {
    return {
      select: COLUMNS,
      from: `${directMemberships(kind)} m ${joinUser('m.user_id')}`,
      where,
      params,
      orderBy,
      dir,
      id: 'm.id',
      map,
      key: `m.${membershipSourceColumn(kind)}`,
    };
  }
  return {
    select: COLUMNS,
    from: await relationsFrom(ctx, kind, relations),
    where,
    params,
    orderBy,
    dir,
    id: 'm.user_id',
    map,
    key: 'm.list_key',
  };
}

/**
 * `Group.groupMembers(…)` / `Project.projectMembers(…)` of many groups or projects with one argument set:
 * one bounded count and one page query (offsetPagesByKey), whatever the number of parents. The member
 * loaders (member.loaders.ts) call it once per kind and distinct argument set.
 */
export async function memberPagesFor(
  ctx: RequestCtx,
  kind: SourceKind,
  args: MemberListArgs,
  sourceIds: readonly number[],
): Promise<Map<number, Page<MemberType>>> {
  // list_key (inherited lists) or the membership's source column (direct lists) tells whose row it is.
  const q = await memberListQuery(ctx, kind, relationSet(args.relations), args.search, args.sort);
  const select = q.key === 'm.list_key' ? `${q.select}, m.list_key` : q.select;
  return offsetPagesByKey(ctx.em, { ...q, select }, q.key, sourceIds, args);
}

/** The field's arguments in one form (relations deduplicated and sorted, the default spelled out), so that equal lists share a batch. */
export const normalizedMemberListArgs = (a: MemberListArgs): MemberListArgs => ({
  ...a,
  relations: [...relationSet(a.relations)].sort(),
});
