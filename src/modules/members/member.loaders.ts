import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { loadMemberLists, memberListArgsKey, type MemberListKey } from './member.service';
import type { MemberType } from './member.type';

/** `Group.groupMembers` / `Project.projectMembers` across the groups or projects of a list (no query per parent). */
export function memberLoaders(ctx: RequestCtx) {
  return {
    memberLists: new DataLoader<MemberListKey, Page<MemberType>, string>((keys) => loadMemberLists(ctx, keys), {
      cacheKeyFn: (k) => `${k.kind}:${k.sourceId}:${memberListArgsKey(k.args)}`,
    }),
  };
}

type MemberLoaders = ReturnType<typeof memberLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends MemberLoaders {}
}
