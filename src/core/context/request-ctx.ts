import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../crypto/secret-box';
import type { DomainError } from '../errors/domain-errors';
import type { SharedCache } from '../db/shared-cache';
import type { Loaders } from './loaders';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A source of random integers in [0, max): crypto by default, seeded in tests (per app instance). */
export type RandomInt = (max: number) => number;

export const systemRandom: RandomInt = (max) => crypto.randomInt(max);

/** The process environment as read at start-up (modules read their own settings from it, e.g. PAGES_ENABLED). */
export type AppEnv = Readonly<Record<string, string | undefined>>;

/**
 * The signed-in user as core sees it. The users module augments it with its entity
 * (`interface CurrentUser extends User {}`), so services get the full record.
 */
export interface CurrentUser {
  id: number;
  admin: boolean;
}

/** How the caller authenticated: token scopes and whether an admin acts for someone else (Sudo). */
export interface Credential {
  scopes: readonly string[];
  /** Impersonation tokens follow the same scope rules. */
  impersonation: boolean;
  /** The token's row id (`/personal_access_tokens/self`); absent for in-process credentials. */
  tokenId?: number;
  /** The administrator behind a Sudo request (ctx.user is then the impersonated user). */
  sudoer?: CurrentUser;
}

/** Everything a resolver or service needs for one request, on both surfaces. */
export interface RequestCtx {
  em: EntityManager;
  user: CurrentUser | null;
  /** null for anonymous callers and for in-process callers (seeds), which have every scope. */
  credential: Credential | null;
  /** A token was supplied but is unknown, revoked or expired: every operation answers 401. */
  tokenInvalid: boolean;
  /** Authentication refused a valid token (e.g. a unique-IPs limit): every operation answers this error. */
  refusal: DomainError | null;
  loaders: Loaders;
  clock: Clock;
  externalUrl: string;
  /** EXTERNAL_URL's host name (SSH clone URLs). */
  externalHost: string;
  /** Seals and opens secrets stored at rest (runner tokens, private keys). */
  secrets: SecretBox;
  /** App-scoped cache kept correct across instances (core/db/shared-cache). */
  cache: SharedCache;
  /** Per-request memo for values computed once (e.g. the caller's authorized id sets). */
  memo: Map<string, Promise<unknown>>;
  /** Random integers (generated slugs); tests pass a seeded source. */
  random: RandomInt;
  /** Module settings from the environment (read through the module's own parser). */
  env: AppEnv;
  /** The HTTP request behind this context (audit events); absent for seeds and other in-process callers. */
  request?: RequestInfo;
}

/** Who called from where, as audit events record it. */
export interface RequestInfo {
  /** Client address (TRUST_PROXY rules). */
  ip: string | null;
  /** The request id (X-Request-Id). */
  id: string | null;
  /** Under Sudo: the administrator's username acting as `user`. */
  sudoBy?: string;
  /** A REST DELETE's If-Unmodified-Since, when it parses as a date (core/db/delete-claim.ts). */
  unmodifiedSince?: Date;
}

export interface CtxArgs {
  em: EntityManager;
  user: CurrentUser | null;
  credential?: Credential | null;
  tokenInvalid?: boolean;
  refusal?: DomainError | null;
  externalUrl: string;
  secrets: SecretBox;
  cache: SharedCache;
  clock?: Clock;
  random?: RandomInt;
  env?: AppEnv;
  request?: RequestInfo;
}

/** A context factory bound to the registered modules' loaders (see core/module). */
export type CtxFactory = (args: CtxArgs) => RequestCtx;

export function ctxFactory(loaders: (ctx: RequestCtx) => object): CtxFactory {
  // The app's EXTERNAL_URL is one string: its host is parsed once per app, not per request.
  const hosts = new Map<string, string>();
  const hostOf = (url: string): string => {
    let host = hosts.get(url);
    if (host === undefined) {
      host = new URL(url).hostname;
      if (hosts.size < 8) hosts.set(url, host);
    }
    return host;
  };
  return (args) => {
    const ctx: RequestCtx = {
      em: args.em,
      user: args.user,
      credential: args.credential ?? null,
      tokenInvalid: args.tokenInvalid ?? false,
      refusal: args.refusal ?? null,
      clock: args.clock ?? systemClock,
      externalUrl: args.externalUrl,
      externalHost: hostOf(args.externalUrl),
      secrets: args.secrets,
      cache: args.cache,
      memo: new Map(),
      random: args.random ?? systemRandom,
      env: args.env ?? {},
      request: args.request,
      loaders: {} as Loaders,
    };
    ctx.loaders = loaders(ctx) as Loaders;
    return ctx;
  };
}
