import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../errors/domain-errors';
import { sqlRows } from './sql';

/**
 * How many rows of one kind a user may own (SSH keys, GPG keys), checked inside the write's
 * transaction: a transaction advisory lock on (table, owner) serialises that owner's concurrent adds,
 * so ten parallel adds at the limit leave the limit, not the limit plus nine. GitLab sets no such
 * number; ours keeps what one user can make every read of their keys hold bounded
 * (docs/security.md, "Response size").
 */
export async function checkOwnerLimit(
  tx: EntityManager,
  opts: { table: string; ownerColumn: string; ownerId: number; max: number; what: string },
): Promise<void> {
  const { table, ownerColumn, ownerId, max, what } = opts;
  await sqlRows(tx, 'select pg_advisory_xact_lock(hashtext(?), ?)', [table, ownerId]);
  const [row] = await sqlRows<{ n: number }>(
    tx,
    `select count(*)::int as n from (select 1 from ${table} where ${ownerColumn} = ? limit ?) x`,
    [ownerId, max],
  );
  if (row.n >= max) throw new ValidationError({ base: [`You have reached the maximum of ${max} ${what}`] });
}
