import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../../modules/users/user.entity';
import { createLoaders, type Loaders } from './loaders';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Everything a resolver or service needs for one request, on both surfaces. */
export interface RequestCtx {
  em: EntityManager;
  user: User | null;
  /** A token was supplied but is unknown, revoked or expired: every operation answers 401. */
  tokenInvalid: boolean;
  loaders: Loaders;
  clock: Clock;
  externalUrl: string;
  /** Per-request memo for values computed once (e.g. the caller's authorized id sets). */
  memo: Map<string, Promise<unknown>>;
}

export function createRequestCtx(args: { em: EntityManager; user: User | null; tokenInvalid: boolean; externalUrl: string; clock?: Clock }): RequestCtx {
  const ctx: RequestCtx = {
    em: args.em,
    user: args.user,
    tokenInvalid: args.tokenInvalid,
    clock: args.clock ?? systemClock,
    externalUrl: args.externalUrl,
    memo: new Map(),
    loaders: undefined as unknown as Loaders,
  };
  ctx.loaders = createLoaders(ctx);
  return ctx;
}
