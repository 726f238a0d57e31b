import { PeekLoader } from '../../core/context/peek-loader';
import type { RequestCtx } from '../../core/context/request-ctx';
import DataLoader from 'dataloader';
import { lightEntitiesById, sqlRows } from '../../core/db/sql';
import { intArray, membershipCountsOf } from '../access';
import { User } from './user.entity';

/**
 * Users by id for object links (a member's `user`, a project's `creator`, a token's `user`): one query
 * per batch. Every caller may read any user (`user(id)` is open, as GitLab 10.3's GET /users/:id);
 * private fields are guarded by the User type's own resolvers.
 */
export function userLoaders(ctx: RequestCtx) {
  return {
    user: new PeekLoader<number, User | null>(async (ids) => {
      const byId = new Map((await lightEntitiesById(ctx.em, User, ids)).map((u) => [u.id, u]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    /** User.groupCount and projectCount across the users of a list: one statement. */
    userMembershipCounts: new DataLoader<number, { groups: number; projects: number }>(async (ids) => {
      const rows = await sqlRows<{ user_id: number; groups: number; projects: number }>(
        ctx.em,
        membershipCountsOf(intArray(ids)),
      );
      const byId = new Map(rows.map((r) => [Number(r.user_id), { groups: r.groups, projects: r.projects }]));
      return ids.map((id) => byId.get(id) ?? { groups: 0, projects: 0 });
    }),
  };
}

type UserLoaders = ReturnType<typeof userLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends UserLoaders {}
}
