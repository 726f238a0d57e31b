import type { RequestCtx } from '../core/context/request-ctx';
import type { ParamSpec } from '../core/params/coerce';
import type { WireShape } from '../core/wire/wire';
import type { Cursor } from '../core/pagination/cursor';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What a route says about one parameter beyond what its GraphQL argument gives (rest/derive-params.ts):
 * `required` where GitLab requires a nullable field, `notFound` for ids, `arg` for a GitLab name that is
 * not the snake_case of the GraphQL name, `type` for a coercion GraphQL cannot express (date) or a
 * REST-only parameter (`arg: '-'`), `aliasOf` for a second GitLab name of the same field, `description`.
 */
export interface ParamException extends Partial<ParamSpec> {
  aliasOf?: string;
  /** A GraphQL argument that is no REST parameter (`fullPath` next to GitLab's `:id`). */
  omit?: true;
}

/**
 * Grape's cross-parameter rules, checked after coercion, with GitLab's messages
 * (docs/gitlab-compatibility.md, "Parameter errors"). `given` fires when the switch is sent with
 * the value `is` (default true), like Grape's `given x do requires a, b end`.
 */
export type ParamRule =
  /**
   * `'input'`: every parameter the root field's `input` argument gives (its fields in declaration
   * order, each alias after the field it names), so a field added to the input joins the rule.
   */
  (
    | { atLeastOneOf: string[] | 'input' }
    | { mutuallyExclusive: string[] }
    | { allOrNoneOf: string[] }
    | {
        given: string;
        is?: unknown;
        requires: string[];
        /** Other names that satisfy a required one (legacy spellings). */ aliases?: Record<string, string[]>;
      }
  ) & {
    /**
     * Where Grape declares the rule among the parameters: its problem is reported at that parameter's
     * place in the joined message (`email is missing, password, reset_password are missing, …, username
     * is missing`); without it, after every parameter's own problems.
     */
    at?: string;
  };

/**
 * One REST route, declared as data (the single source of truth for /api/v4):
 * method + GitLab path → one root field of the shared GraphQL schema, with its parameters
 * (GitLab types, required, mapping to GraphQL variables), success status and wire shape (presenter).
 * Who may call it is the root field's @Allow (core/auth/allow.ts), read when the route is compiled.
 */
export interface RouteDef {
  method: HttpMethod;
  /** Express-style path under /api/v4, e.g. '/groups/:id/projects'. */
  path: string;
  /** Root field, 'Query.groups' or 'Mutation.createGroup'. */
  field: string;
  /** Exceptions only: the parameters themselves are derived from the root field's arguments. */
  params?: Record<string, ParamException>;
  rules?: ParamRule[];
  /**
   * Multipart file parameters (e.g. a pages domain's `certificate` and `key`). Only routes that declare
   * them accept file parts, after the caller is authenticated by header or query token; each file
   * arrives as its text, like a form field of that name.
   */
  files?: string[];
  /**
   * GitLab's route-level `before` filters that answer ahead of parameter validation (a project lookup,
   * a feature switch: 404): run after authentication with the raw path parameters.
   */
  filter?: (ctx: RequestCtx, path: Record<string, string>) => Promise<void>;
  /**
   * Checks that answer before the request body is read (a switched-off feature's 404 must not cost a
   * 4 MB upload), for callers authenticated by header or query token: run after authentication and
   * the field's permission metadata, with the raw path parameters; they must not depend on the body.
   * Usually the route's `filter` again (memoized lookups make the second run cheap); a caller whose
   * token is in the body gets the same answers from `filter`, after the body.
   */
  gate?: (ctx: RequestCtx, path: Record<string, string>) => Promise<void>;
  /** Also answered under /api/v3 with the same handler (spec 9: the environment stop example). */
  v3?: boolean;
  /** Success status: fixed, or computed from the GraphQL result. Defaults: POST 201, DELETE 204, else 200. */
  status?: number | ((data: Record<string, unknown>) => number);
  /** The result is a Page: unwrap `nodes` and send the pagination headers. */
  paginated?: boolean;
  /**
   * Keyset pages: the parameters rel="next" sets for the next page, from the next cursor and the
   * request's parameters. Default `cursor=<cursor>`; GitLab's projects API uses `id_after` / `id_before`.
   */
  keysetNext?: (cursor: Cursor, params: Record<string, unknown>) => Record<string, string>;
  /**
   * The result is a JSON scalar sent as it is (GitLab's bare `true` / `false` bodies: POST /users/:id/block),
   * or, with 'status', the status code itself: Grape's body when `status :accepted` ends an endpoint
   * (POST /user/gpg_keys/:key_id/revoke answers 202 with `202`), or with 'accepted' Grape's `accepted!`
   * body `{"message":"202 Accepted"}` (DELETE /projects/:id in GitLab 10.3).
   */
  scalar?: 'boolean' | 'status' | 'accepted';
  /** Path inside the result to present (e.g. 'project' of a payload). */
  unwrap?: string;
  /** Response presenter; absent for 204 routes. May depend on the parameters and the caller. */
  shape?: WireShape | ((vars: Record<string, unknown>, ctx: RequestCtx) => WireShape);
  /** All shapes `shape` can return, for the OpenAPI document. */
  shapes?: WireShape[];
  summary: string;
  tag: string;
}

const declaredIn = new WeakMap<RouteDef, string>();

/**
 * A module's route table. Records the file that declares it (from the caller's stack frame) so the
 * generated route reference (docs/routes.md) can name it without importing every module's internals.
 */
export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  const file = callerFile();
  if (file) for (const route of routes) declaredIn.set(route, file);
  return routes;
}

/** `src/modules/<module>/<file>.ts` that declared the route with `defineRoutes`. */
export const routeDeclaredIn = (route: RouteDef): string | undefined => declaredIn.get(route);

/** The source file of defineRoutes' caller, as `src/...ts` (compiled `dist/...js` mapped back). */
function callerFile(): string | undefined {
  const frame = new Error().stack?.split('\n')[3] ?? '';
  const m = /\(?((?:file:\/\/)?[^():]+):\d+:\d+\)?$/.exec(frame.trim());
  if (!m) return undefined;
  const parts = m[1].split(/[\\/]/);
  const at = parts.lastIndexOf('modules');
  return at < 0 ? undefined : ['src', ...parts.slice(at)].join('/').replace(/\.js$/, '.ts');
}
