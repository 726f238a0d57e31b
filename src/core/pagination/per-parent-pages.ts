import DataLoader from 'dataloader';
import type { Page } from './page';

/** One parent's nested list (a runner's jobs, a project's environments) with the field's arguments. */
export interface PerParentKey<A> {
  parentId: number;
  args: A;
}

/** Every argument keys the batch, connection ones included: two aliases with different cursors never share a page. */
const argsKey = (args: unknown) => JSON.stringify(args);

/**
 * The DataLoader of a nested list for many parents (`Runner.jobs`, `Project.jobs`,
 * `Project.environments`): the keys are grouped per distinct argument set and `pages(args, parentIds)`
 * answers each set in one round trip (list-query.ts `offsetPagesByKey`), whatever the number of parents.
 */
export function perParentPages<A, T>(pages: (args: A, parentIds: number[]) => Promise<Map<number, Page<T>>>): DataLoader<PerParentKey<A>, Page<T>, string> {
  const keyOf = (k: PerParentKey<A>) => `${k.parentId}|${argsKey(k.args)}`;
  return new DataLoader(async (keys) => {
    const sets = new Map<string, PerParentKey<A>[]>();
    for (const k of keys) sets.set(argsKey(k.args), [...(sets.get(argsKey(k.args)) ?? []), k]);
    const out = new Map<string, Page<T>>();
    for (const [a, set] of sets) {
      const got = await pages(set[0].args, [...new Set(set.map((k) => k.parentId))]);
      for (const [parentId, page] of got) out.set(`${parentId}|${a}`, page);
    }
    return keys.map((k) => out.get(keyOf(k)) ?? new Error(`no page for parent ${k.parentId}`));
  }, { cacheKeyFn: keyOf });
}
