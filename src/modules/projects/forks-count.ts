import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray, sqlRows } from '../../core/db/sql';
import { lockSubtrees, subtreeIds } from '../namespaces';

/**
 * `projects.forks_count` (GitLab's ForksCountService cache) follows every write that adds or removes
 * a fork link, in that write's transaction. It is moved by one, never recounted: `forks_count =
 * forks_count + 1` waits for a concurrent writer of the source row and then applies to its latest
 * committed version, so parallel forks, links, unlinks and deletes all count. A recount under READ
 * COMMITTED cannot see the forks other transactions have not committed yet (15 parallel forks
 * counted 4). The writers: fork and link (+1), unlink and the delete of a fork (-1, from the link the
 * locked row had), and a delete of namespaces that takes projects with it (`uncountForksUnder`).
 */
export async function countForkChange(em: EntityManager, sourceId: number, delta: 1 | -1): Promise<void> {
  await sqlRows(em, 'update projects set forks_count = forks_count + ? where id = ?', [delta, sourceId]);
}

/**
 * Before deleting namespaces whose projects go with them (FK cascade, which reports nothing back):
 * locks the namespaces and their descendants, so that no project is created in or moved into them
 * until the delete commits, then the forks among their projects (id order), so that a concurrent
 * delete or unlink of one of them either finished first (the row is gone or unlinked when read here)
 * or waits for this transaction, and takes them off their sources' counts, sources in id order.
 * Run it in the delete's transaction, before anything reads the subtree's projects.
 */
export async function uncountForksUnder(em: EntityManager, namespaceIds: readonly number[]): Promise<void> {
  if (namespaceIds.length === 0) return;
  await lockSubtrees(em, namespaceIds);
  const forks = await sqlRows<{ source: number | null }>(
    em,
    `select p.forked_from_project_id as source from projects p
      where p.namespace_id = any(array(${subtreeIds('?::int[]')})) and p.forked_from_project_id is not null order by p.id for update`,
    [pgArray(namespaceIds)],
  );
  const bySource = new Map<number, number>();
  // Re-read under the lock: a fork unlinked meanwhile shows its source as null.
  for (const f of forks)
    if (f.source !== null) bySource.set(Number(f.source), (bySource.get(Number(f.source)) ?? 0) + 1);
  for (const [source, n] of [...bySource].sort((a, b) => a[0] - b[0])) {
    await sqlRows(em, 'update projects set forks_count = forks_count - ? where id = ?', [n, source]);
  }
}
