import type { GraphQLSchema } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';

/** A compiled operation, or 'execute' when graphql-jit could not compile it (graphql-js runs it). */
export type JitEntry = CompiledQuery | 'execute';

/**
 * Compiled /graphql operations kept per schema (issue 8). 1,000 entries: a client repeating its
 * queries compiles each once; a client sending ever new documents pushes out the least recently
 * used ones and never grows the process (README "Architecture", performance notes).
 */
export const JIT_CACHE_MAX = 1000;

/** A bounded least-recently-used map: Map keeps insertion order, a hit moves its key to the end. */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  hits = 0;
  misses = 0;

  /** `max` is public so that a test can lower it; production keeps JIT_CACHE_MAX. */
  constructor(public max: number) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }

  clear(): void {
    this.map.clear();
    this.hits = 0;
    this.misses = 0;
  }
}

const caches = new WeakMap<GraphQLSchema, LruCache<JitEntry>>();

/** The compiled-operation cache of one schema (a compiled query belongs to the schema it was compiled against). */
export function jitCacheOf(schema: GraphQLSchema): LruCache<JitEntry> {
  let cache = caches.get(schema);
  if (!cache) {
    cache = new LruCache<JitEntry>(JIT_CACHE_MAX);
    caches.set(schema, cache);
  }
  return cache;
}
