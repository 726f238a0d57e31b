import type { RequestCtx } from '../core/context/request-ctx';
import type { ParamSpec } from '../core/params/coerce';
import type { WireShape } from '../core/wire/wire';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One REST route, declared as data (the single source of truth for /api/v4):
 * method + GitLab path → one root field of the shared GraphQL schema, with its parameters
 * (GitLab types, required, mapping to GraphQL variables), success status and wire shape (presenter).
 */
export interface RouteDef {
  method: HttpMethod;
  /** Express-style path under /api/v4, e.g. '/groups/:id/projects'. */
  path: string;
  /** Root field, 'Query.groups' or 'Mutation.createGroup'. */
  field: string;
  params?: Record<string, ParamSpec>;
  /**
   * Multipart file parameters (e.g. a pages domain's `certificate` and `key`). Only routes that declare
   * them accept file parts, after the caller is authenticated by header or query token; each file
   * arrives as its text, like a form field of that name.
   */
  files?: string[];
  /** Grape's at_least_one_of: 400 "<a>, <b> are missing, at least one parameter must be provided". */
  atLeastOne?: string[];
  /** Checked before parameter validation, as GitLab's route-level filters are (gitlab-behaviour §0.2). */
  auth?: 'user' | 'admin';
  /** Success status: fixed, or computed from the GraphQL result. Defaults: POST 201, DELETE 204, else 200. */
  status?: number | ((data: Record<string, unknown>) => number);
  /** The result is a Page: unwrap `nodes` and send the pagination headers. */
  paginated?: boolean;
  /** Path inside the result to present (e.g. 'project' of a payload). */
  unwrap?: string;
  /** Response presenter; absent for 204 routes. May depend on the parameters and the caller. */
  shape?: WireShape | ((vars: Record<string, unknown>, ctx: RequestCtx) => WireShape);
  /** All shapes `shape` can return, for the OpenAPI document. */
  shapes?: WireShape[];
  summary: string;
  tag: string;
}

export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  return routes;
}
