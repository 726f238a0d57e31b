import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { lightEntity, sqlRows } from '../../core/db/sql';
import { BadRequestError, ForbiddenError } from '../../core/errors/domain-errors';
import { offsetPage, offsetPagesByKey, type ListQuery, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { User } from './user.entity';
import { userService } from './user.service';

/**
 * Users following users (later GitLab's users API: follow, unfollow, followers, following;
 * docs/rest.md#following). GitLab caps the users one may follow at 300.
 */
export const MAX_FOLLOWEES = 300;

/** POST /users/:id/follow: the followed user, or null when the caller already follows them (REST 304). */
async function follow(ctx: RequestCtx, id: number): Promise<User | null> {
  const caller = requireUser(ctx);
  const user = await userService.get(ctx, id);
  if (user.id === caller.id) throw new BadRequestError('400 Bad request - You cannot follow yourself');
  const rows = await ctx.em.transactional(async (em) => {
    // The cap is checked under a lock of the follower's row, so two concurrent follows cannot pass it together.
    await sqlRows(em, 'select 1 from users where id = ? for no key update', [caller.id]);
    const [{ n }] = await sqlRows<{ n: number }>(
      em,
      'select count(*)::int as n from user_follow_users where follower_id = ?',
      [caller.id],
    );
    if (n >= MAX_FOLLOWEES)
      throw new BadRequestError(
        `You can't follow more than ${MAX_FOLLOWEES} users. To follow more users, unfollow some others.`,
      );
    return sqlRows(
      em,
      `insert into user_follow_users (follower_id, followee_id, created_at) values (?, ?, ?)
       on conflict do nothing returning followee_id`,
      [caller.id, user.id, ctx.clock.now()],
    );
  });
  return rows.length > 0 ? user : null;
}

/** POST /users/:id/unfollow: the user no longer followed, or null when the caller did not follow them (REST 304). */
async function unfollow(ctx: RequestCtx, id: number): Promise<User | null> {
  const caller = requireUser(ctx);
  const user = await userService.get(ctx, id);
  const rows = await sqlRows(
    ctx.em,
    'delete from user_follow_users where follower_id = ? and followee_id = ? returning followee_id',
    [caller.id, user.id],
  );
  return rows.length > 0 ? user : null;
}

type Which = 'followers' | 'following';

/** The users following (or followed by) a user, newest follow first; the caller adds which user(s) by `f.<mine>`. */
function followQuery(ctx: RequestCtx, which: Which): { query: ListQuery<User>; mine: string } {
  const [mine, theirs] = which === 'followers' ? ['followee_id', 'follower_id'] : ['follower_id', 'followee_id'];
  return {
    mine: `f.${mine}`,
    query: {
      select: 'u.*, f.created_at as followed_at',
      from: `user_follow_users f join users u on u.id = f.${theirs}`,
      where: [],
      params: [],
      orderBy: 'f.created_at',
      dir: 'desc',
      id: 'u.id',
      map: (r) => lightEntity(ctx.em, User, r),
    },
  };
}

/** GET /users/:id/followers or /following: signed-in callers only (GitLab: 403 `Not authorized!`), newest first. */
async function list(ctx: RequestCtx, id: number, which: Which, args: PageInput): Promise<Page<User>> {
  if (!ctx.user) throw new ForbiddenError('Not authorized!');
  const user = await userService.get(ctx, id);
  const { query, mine } = followQuery(ctx, which);
  return offsetPage(ctx.em, { ...query, where: [`${mine} = ?`], params: [user.id] }, args);
}

/** `User.followers` / `User.following` of many users (signed-in callers: the resolver checked): one round trip. */
function listForUsers(ctx: RequestCtx, which: Which, ids: number[], args: PageInput): Promise<Map<number, Page<User>>> {
  const { query, mine } = followQuery(ctx, which);
  return offsetPagesByKey(ctx.em, query, mine, ids, args);
}

export const userFollows = { follow, unfollow, list, listForUsers };
