import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestCtx } from '../context/request-ctx';
import { NotFoundError, PreconditionFailedError, type DomainError } from '../errors/domain-errors';
import { sqlRows } from './sql';

/**
 * If-Unmodified-Since as GitLab's API helper reads it (`Time.parse(header) rescue nil`): any date
 * Date.parse understands (RFC 1123 `Mon, 01 Jan 2001 00:00:00 GMT`, ISO 8601); anything else is ignored.
 */
export function parseUnmodifiedSince(header: string | undefined): Date | undefined {
  if (!header || header.length > 100) return undefined;
  const ms = Date.parse(header);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

export interface DeleteTarget {
  /** The table of the row the delete removes (or, for a link, the link's table). */
  table: string;
  /** SQL condition naming the row, e.g. `id = ?`. */
  where: string;
  params: unknown[];
  /** The answer when the row is gone by the time the delete runs (the caller's 404). */
  missing: () => DomainError;
  /** The row's last-modified column (default `updated_at`; `created_at` for rows never changed after they are made). */
  modifiedColumn?: string;
  /** Leave the 412 check to the caller (`checkUnmodifiedSince`), when GitLab refuses with 403 first. */
  deferPrecondition?: boolean;
}

/**
 * The first statement of a delete's transaction, GitLab's `destroy_conditionally!`
 * (docs.gitlab.com/ee/api/rest/ "Conditional requests"; gitlab-behaviour.md "Errors"):
 * - locks the row, so of two concurrent deletes of one row the second waits for the first and then
 *   finds nothing: its 404, and no second audit event or system hook for the same removal. FOR NO KEY
 *   UPDATE, not FOR UPDATE: the foreign-key checks of concurrent inserts referencing the row (a
 *   project created by the user being deleted) take KEY SHARE, which this lock lets through, so a
 *   writer that locked something else first cannot deadlock with the claim; the DELETE itself then
 *   waits for them;
 * - with a REST If-Unmodified-Since older than the row's last change: 412 `412 Precondition Failed`,
 *   nothing deleted. Compared at the precision of JavaScript dates (milliseconds).
 */
export async function claimForDelete(
  ctx: RequestCtx,
  em: EntityManager,
  target: DeleteTarget,
): Promise<{ modified: Date | null }> {
  const [row] = await sqlRows<{ modified: Date | string | null }>(
    em,
    `select ${target.modifiedColumn ?? 'updated_at'} as modified from ${target.table} where ${target.where} for no key update`,
    target.params,
  );
  if (!row) throw target.missing();
  const modified = row.modified === null ? null : row.modified instanceof Date ? row.modified : new Date(row.modified);
  if (!target.deferPrecondition) checkUnmodifiedSince(ctx, modified);
  return { modified };
}

/** 412 when the request's If-Unmodified-Since is older than `modified` (nothing to compare: no check). */
export function checkUnmodifiedSince(ctx: RequestCtx, modified: Date | null): void {
  const since = ctx.request?.unmodifiedSince;
  if (since && modified && modified.getTime() > since.getTime()) throw new PreconditionFailedError();
}

/** The usual target: a row by primary key, gone → `404 <resource> Not Found` (or GitLab's bare "404 Not found"). */
export function byId(table: string, id: number, resource?: string): DeleteTarget {
  return { table, where: 'id = ?', params: [id], missing: () => new NotFoundError(resource) };
}
