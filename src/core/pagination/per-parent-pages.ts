import DataLoader from 'dataloader';
import type { Page } from './page';

/** One parent's nested list (a runner's jobs, a project's environments) with the field's arguments. */
export interface PerParentKey<A> {
  parentId: number;
  args: A;
}

/**
 * Every argument keys the batch, connection ones included: two aliases with different cursors never share
 * a page. The key is canonical: object keys sorted, null and omitted arguments alike (a field's resolver
 * reads both as "not given"), so equal argument sets written differently share one statement.
 */
const canonical = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(canonical);
  if (v === null || typeof v !== 'object' || v instanceof Date) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== null && x !== undefined) out[k] = canonical(x);
  }
  return out;
};
const argsKey = (args: unknown): string => JSON.stringify(canonical(args));

/**
 * The DataLoader of a per-parent value with arguments for many parents: the keys are grouped per
 * distinct argument set and `load(args, parentIds)` answers each set in one round trip, whatever the
 * number of parents (e.g. `Runner.jobCount(statuses)`: list-query.ts `boundedCountsByKey`).
 */
export function perParent<A, V>(
  load: (args: A, parentIds: number[]) => Promise<Map<number, V>>,
): DataLoader<PerParentKey<A>, V, string> {
  const keyOf = (k: PerParentKey<A>) => `${k.parentId}|${argsKey(k.args)}`;
  return new DataLoader(
    async (keys) => {
      const sets = new Map<string, PerParentKey<A>[]>();
      for (const k of keys) sets.set(argsKey(k.args), [...(sets.get(argsKey(k.args)) ?? []), k]);
      const out = new Map<string, V>();
      for (const [a, set] of sets) {
        const got = await load(set[0].args, [...new Set(set.map((k) => k.parentId))]);
        for (const [parentId, value] of got) out.set(`${parentId}|${a}`, value);
      }
      return keys.map((k) => (out.has(keyOf(k)) ? out.get(keyOf(k))! : new Error(`no value for parent ${k.parentId}`)));
    },
    { cacheKeyFn: keyOf },
  );
}

/**
 * The same for nested lists (`Runner.jobs`, `Project.jobs`, `Project.environments`): a page per parent,
 * `pages(args, parentIds)` in one round trip per argument set (list-query.ts `offsetPagesByKey`).
 */
export function perParentPages<A, T>(
  pages: (args: A, parentIds: number[]) => Promise<Map<number, Page<T>>>,
): DataLoader<PerParentKey<A>, Page<T>, string> {
  return perParent<A, Page<T>>(pages);
}
