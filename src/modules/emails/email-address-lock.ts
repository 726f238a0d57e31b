import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../core/db/sql';

/** The first key of the two-key advisory locks taken here: e-mail addresses (any fixed int4). */
const EMAIL_LOCK_CLASS = 20_261_121;

/**
 * Serializes the writers of one e-mail address, case-insensitively, until the caller's transaction
 * ends. An address is unique across users.email (primary) and emails (secondary): two tables, so no
 * unique index covers a primary against a secondary one, and two parallel check-then-write requests
 * would both pass their check (docs/security.md#row-locks-no-lost-invariants-under-concurrency). Each writer of a primary or secondary address
 * takes this lock first in its write's transaction, then checks the address again and writes: the
 * second waits for the first to commit, and its check (a new statement: a new snapshot under READ
 * COMMITTED) sees the first one's row. A two-key lock: the single-bigint key space (start-up lock)
 * does not overlap it.
 */
export async function lockEmailAddress(em: EntityManager, address: string): Promise<void> {
  // Outside a transaction the lock would end with its own statement and serialize nothing.
  if (!em.getTransactionContext()) throw new Error("lockEmailAddress needs the write's transaction");
  await sqlRows(em, 'select pg_advisory_xact_lock(?, hashtext(lower(?)))', [EMAIL_LOCK_CLASS, address]);
}
