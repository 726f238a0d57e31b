import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../core/db/sql';

/**
 * `last_used_at` of a token, as GitLab records it: at most once every 10 minutes per token
 * (PersonalAccessTokens::LastUsedService), so a busy token costs one small UPDATE per 10 minutes, sent
 * beside the request's own work and never awaited by it. The row cached with the credential tells
 * when it was last written; the in-process map keeps one instance from writing it twice meanwhile.
 * A failed write is dropped (the next request after the interval writes again).
 */
export const TOKEN_USE_INTERVAL_MS = 10 * 60_000;
const written = new Map<number, number>();
const pending = new Set<Promise<unknown>>();

export function noteTokenUse(em: EntityManager, tokenId: number, lastUsedAt: Date | string | null, now: Date): void {
  const at = now.getTime();
  const last = lastUsedAt === null ? 0 : typeof lastUsedAt === 'string' ? Date.parse(lastUsedAt) : lastUsedAt.getTime();
  if (at - last < TOKEN_USE_INTERVAL_MS) return;
  if (at - (written.get(tokenId) ?? 0) < TOKEN_USE_INTERVAL_MS) return;
  if (written.size > 100_000) written.clear(); // a bound, not a policy: forgetting only allows one more write
  written.set(tokenId, at);
  const write = sqlRows(
    em,
    `update personal_access_tokens set last_used_at = ? where id = ?
       and (last_used_at is null or last_used_at < ?)`,
    [now, tokenId, new Date(at - TOKEN_USE_INTERVAL_MS)],
  ).catch(() => {
    written.delete(tokenId);
  });
  pending.add(write);
  void write.finally(() => pending.delete(write));
}

/** Resolves when the writes started so far have ended (tests, graceful shutdown). */
export async function tokenUseWritesSettled(): Promise<void> {
  await Promise.all([...pending]);
}

/** Forgets what this instance wrote (tests that rewind the clock or reset the database). */
export function forgetTokenUseWrites(): void {
  written.clear();
}
