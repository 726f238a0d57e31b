import type { EntityClass } from '@mikro-orm/core';
import type { MigrationObject } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NonEmptyArray } from 'type-graphql';
import type { Logger } from 'pino';
import type { AppEnv, CurrentUser, RequestCtx } from '../context/request-ctx';
import type { SecretBox } from '../crypto/secret-box';
import type { SharedCache } from '../db/shared-cache';
import type { RouteDef } from '../../rest/route';
import type { StoredFile } from '../http/stored-file';
import type { NodeDef } from '../graphql/node';
import { SUBSCRIPTION_SETTINGS } from '../graphql/subscription-settings';
import type { EnvSetting } from './env-settings';

/**
 * A file the module serves outside /api/v4 (GitLab's `/uploads/…` of avatars): `find` answers the
 * file the caller may read, or null (404, as missing); core sends it (core/http/stored-file.ts).
 */
export interface DownloadRoute {
  /** Express path, e.g. '/uploads/-/system/user/avatar/:id/:filename'. */
  path: string;
  find: (ctx: RequestCtx, params: Record<string, string>) => Promise<StoredFile | null>;
}

/** What a seed step gets: an entity manager, request contexts for any user, a log line writer. */
export interface SeedEnv {
  em: EntityManager;
  externalUrl: string;
  log: (line: string) => void;
  /** `--scale N` of `npm run seed` (0 without it). */
  scale: number;
  /** A request context acting as this user (fresh entity manager fork). */
  as: (user: CurrentUser) => RequestCtx;
}

/**
 * One resource module as core sees it (docs/adding-a-resource.md). Core never imports a module:
 * src/modules/index.ts lists them and the entry points (main.ts, app.ts, the CLIs, the tests) pass
 * the list to core.
 */
export interface AppModule {
  name: string;
  /** MikroORM entities (their tables come from the module's migration). */
  entities?: EntityClass<object>[];
  /** The module's migrations (`MigrationYYYYMMDDhhmmss_<what>`); all modules' run in name order. */
  migrations?: MigrationObject[];
  /** type-graphql resolver classes; root fields carry @Allow. */
  resolvers?: Function[];
  /** REST routes (the module's *.rest.ts), in GitLab's mount order. */
  routes?: RouteDef[];
  /**
   * Global ids (docs/graphql.md#global-ids-and-lookups): per object type implementing Node, GitLab's class in
   * its gids and the visible rows by key for `node(id)` / `nodes(ids)` (core/graphql/node.ts).
   */
  nodes?: NodeDef[];
  /**
   * Per-request dataloaders, merged into ctx.loaders (declare their types with `declare module`): one
   * factory, or a list of them, each made on the first read of one of its loaders (`loaderFactory`).
   */
  loaders?: LoaderSet | readonly LoaderSet[];
  /** Steps of `npm run seed`, run in registry order. */
  seed?: ((env: SeedEnv) => Promise<void>)[];
  /**
   * Named switches core consults before serving something optional (app.ts: 'graphiql'), for the
   * caller in `ctx`: true or false, or undefined when this module has no say on that name.
   */
  switches?: (ctx: RequestCtx, name: string) => Promise<boolean | undefined>;
  /**
   * Columns holding values sealed with the secrets key (core/crypto/secret-box.ts): what the start-up
   * key check samples and `npm run secrets:rotate` re-seals (docs/operations.md#secrets-key-rotation).
   */
  sealed?: SealedColumn[];
  /** Files served outside /api/v4 (avatars), each behind the same authentication as the API. */
  downloads?: DownloadRoute[];
  /**
   * Work the module runs in the background of every instance (system hook delivery), started with the
   * app and stopped with it (buildApp's `stop`). It must be safe with several instances running it.
   */
  background?: (env: BackgroundEnv) => BackgroundTask;
  /**
   * The environment variables the module reads (core/module/env-settings.ts), each with its parser:
   * checked at start (a wrong value stops it, exit code 2) and read with `readSetting(ctx.env, …)`.
   */
  settings?: EnvSetting<unknown>[];
  /**
   * Work run once when the database is ready, before the service serves (the tokens module's root user
   * from INITIAL_ROOT_TOKEN), in registry order, by the start-up steps (ops/startup-failure.ts).
   */
  atStart?: (env: StartEnv) => Promise<void>;
}

/** What a module's start-up step gets: an entity manager, the logger, the start-up settings it may read. */
export interface StartEnv {
  em: EntityManager;
  logger: Logger;
  /** INITIAL_ROOT_TOKEN (docs/configuration.md). */
  initialRootToken: string | undefined;
}

/** What a background task gets: its own entity manager (raw statements), the shared cache, secrets, a logger. */
export interface BackgroundEnv {
  em: EntityManager;
  cache: SharedCache;
  secrets: SecretBox;
  logger: Logger;
  env: AppEnv;
}

export interface BackgroundTask {
  /** Stops taking work and waits (bounded) for what is in flight. */
  stop(): Promise<void>;
}

/** A column of sealed values, each sealed for the slot (table, column, rowKey of its row). */
export interface SealedColumn {
  table: string;
  column: string;
  /** SQL expression over the row giving the slot's row key (as the service's code computes it), e.g. `id`. */
  rowKey: string;
  /** The column with the keyed digest of the same plain text (lookups), recomputed on rotation. */
  digestColumn?: string;
  /**
   * What `npm run secrets:reset-lost` puts in place of a value no configured key opens
   * (docs/operations.md#keys); without it the value (and its digest) becomes null.
   */
  resetLost?: LostValueReset;
}

/** A sealed column's rule for a value whose key is lost. */
export interface LostValueReset {
  /** A new plain value (a random token), sealed for the slot with its digest, instead of null. */
  renew?: () => string;
  /** Other columns of the row set along with the reset (switches that need the value off). */
  alsoSet?: Record<string, boolean | null>;
  /** What an administrator must do afterwards, printed by the command (runners register again). */
  note?: string;
}

/** Every declared environment setting: core's (GraphQL subscriptions) and the modules'. */
export const envSettingsOf = (modules: readonly AppModule[]): EnvSetting<unknown>[] => [
  ...SUBSCRIPTION_SETTINGS,
  ...modules.flatMap((m) => m.settings ?? []),
];

export const sealedColumnsOf = (modules: readonly AppModule[]): SealedColumn[] =>
  modules.flatMap((m) => m.sealed ?? []);

export function defineModule(m: AppModule): AppModule {
  return m;
}

/** The ORM model of the registered modules: what initOrm / openDatabase take. */
export interface OrmModel {
  entities: EntityClass<object>[];
  migrations: MigrationObject[];
}

export function ormModelOf(modules: readonly AppModule[]): OrmModel {
  return {
    entities: modules.flatMap((m) => m.entities ?? []),
    migrations: modules.flatMap((m) => m.migrations ?? []).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

export const routesOf = (modules: readonly AppModule[]) => modules.flatMap((m) => m.routes ?? []);

export function resolversOf(modules: readonly AppModule[]): NonEmptyArray<Function> {
  const all = modules.flatMap((m) => m.resolvers ?? []);
  if (all.length === 0) throw new Error('no resolvers registered');
  return all as NonEmptyArray<Function>;
}

/** A switch is on unless a module turns it off (no module having a say leaves it on). */
export function switchesOf(modules: readonly AppModule[]): (ctx: RequestCtx, name: string) => Promise<boolean> {
  const answers = modules.flatMap((m) => (m.switches ? [m.switches] : []));
  return async (ctx, name) => {
    for (const answer of answers) if ((await answer(ctx, name)) === false) return false;
    return true;
  };
}

export const backgroundOf = (modules: readonly AppModule[]) =>
  modules.flatMap((m) => (m.background ? [m.background] : []));

export const downloadsOf = (modules: readonly AppModule[]) => modules.flatMap((m) => m.downloads ?? []);

/** Constructs a few related loaders for one request (nothing is read before a `load`). */
export type LoaderSet = (ctx: RequestCtx) => object;

const LOADER_CTX = Symbol('loader ctx');
const MADE = Symbol('made loaders');

/**
 * The registered modules' per-request loaders as one object, each loader set made on first use: a
 * request builds the few loaders its fields touch (a REST group list: one set of some forty), not all
 * of them. The first read of any loader of a set runs that set's factory once for the request and keeps
 * what it made in the request's slot for that set. A module lists its sets separately rather than
 * spreading them into one object: each spread past the first copies through V8's runtime, a few µs a
 * request each (docs/benchmarks.md). A factory only constructs loaders, so it is called once at
 * start-up, without a request, to learn its names; two sets declaring the same name fail here.
 */
export function loaderFactory(modules: readonly AppModule[]): (ctx: RequestCtx) => object {
  const proto: Record<PropertyKey, unknown> = {};
  const owner = new Map<string, string>();
  let count = 0;
  for (const m of modules) {
    const sets = m.loaders === undefined ? [] : typeof m.loaders === 'function' ? [m.loaders] : m.loaders;
    for (const make of sets) {
      // The set's slot in the request's list of made loader sets; a getter on the shared prototype
      // reads it (defining own properties per request costs more than the getter).
      const slot = count++;
      for (const name of Object.keys(make({} as RequestCtx))) {
        const other = owner.get(name);
        if (other) throw new Error(`loader sets of ${other} and ${m.name} both declare the loader ${name}`);
        owner.set(name, m.name);
        Object.defineProperty(proto, name, {
          enumerable: true,
          get(this: { [LOADER_CTX]: RequestCtx; [MADE]: (Record<string, unknown> | undefined)[] }) {
            const made = this[MADE];
            return (made[slot] ??= make(this[LOADER_CTX]) as Record<string, unknown>)[name];
          },
        });
      }
    }
  }
  return (ctx) => {
    const loaders = Object.create(proto) as Record<PropertyKey, unknown>;
    loaders[LOADER_CTX] = ctx;
    loaders[MADE] = new Array(count);
    return loaders;
  };
}
