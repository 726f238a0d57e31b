import type { RequestCtx } from '../../core/context/request-ctx';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { memberPagesFor } from './member-list.query';
import type { MemberListArgs, MemberType } from './member.type';

/**
 * `Group.groupMembers` / `Project.projectMembers` across the groups or projects of a list: one round
 * trip per distinct argument set, no query per parent (the resolver normalizes the arguments).
 */
export function memberLoaders(ctx: RequestCtx) {
  return {
    groupMemberLists: perParentPages<MemberListArgs, MemberType>((args, ids) =>
      memberPagesFor(ctx, 'group', args, ids),
    ),
    projectMemberLists: perParentPages<MemberListArgs, MemberType>((args, ids) =>
      memberPagesFor(ctx, 'project', args, ids),
    ),
  };
}

type MemberLoaders = ReturnType<typeof memberLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends MemberLoaders {}
}
