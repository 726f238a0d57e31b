import type { GraphQLSchema } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';

/** A compiled operation, or 'execute' when graphql-jit could not compile it (graphql-js runs it). */
export type JitEntry = CompiledQuery | 'execute';

/**
 * Bounds of the compiled /graphql operations kept per schema. A compiled query's memory
 * grows with its selection expanded through fragments (GraphiQL's introspection query selects
 * hundreds of fields), so the
 * cache counts fields as well as entries: a client repeating its queries compiles each once; a
 * client sending ever new documents pushes out the least recently used ones and never grows the
 * process past about 60 MB (docs/architecture.md#performance-notes).
 */
export const JIT_CACHE_LIMITS = {
  /** Documents (text + operation name) kept compiled. */
  maxEntries: 1000,
  /** Selected fields, fragments expanded, summed over the kept documents. */
  maxFields: 10_000,
  /** A document selecting more fields runs through graphql-js, not compiled. */
  maxDocumentFields: 1000,
};

interface Slot<V> {
  value: V;
  weight: number;
}

/** A bounded least-recently-used map: Map keeps insertion order, a hit moves its key to the end. */
export class LruCache<V> {
  private readonly map = new Map<string, Slot<V>>();
  private total = 0;
  hits = 0;
  misses = 0;

  /** The limits are public so that a test can lower them; production keeps JIT_CACHE_LIMITS. */
  constructor(
    public maxEntries: number,
    public maxWeight: number,
    /** Heavier values are not worth keeping (the caller decides before building them). */
    public maxEntryWeight: number,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** Sum of the kept entries' weights. */
  get weight(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    const slot = this.map.get(key);
    if (slot === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    this.map.delete(key);
    this.map.set(key, slot);
    return slot.value;
  }

  set(key: string, value: V, weight: number): void {
    this.delete(key);
    this.map.set(key, { value, weight });
    this.total += weight;
    while (this.map.size > this.maxEntries || (this.total > this.maxWeight && this.map.size > 1))
      this.delete(this.map.keys().next().value as string);
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
    this.hits = 0;
    this.misses = 0;
  }

  private delete(key: string): void {
    const slot = this.map.get(key);
    if (!slot) return;
    this.total -= slot.weight;
    this.map.delete(key);
  }
}

const caches = new WeakMap<GraphQLSchema, LruCache<JitEntry>>();

/** The compiled-operation cache of one schema (a compiled query belongs to the schema it was compiled against). */
export function jitCacheOf(schema: GraphQLSchema): LruCache<JitEntry> {
  let cache = caches.get(schema);
  if (!cache) {
    cache = new LruCache<JitEntry>(
      JIT_CACHE_LIMITS.maxEntries,
      JIT_CACHE_LIMITS.maxFields,
      JIT_CACHE_LIMITS.maxDocumentFields,
    );
    caches.set(schema, cache);
  }
  return cache;
}
