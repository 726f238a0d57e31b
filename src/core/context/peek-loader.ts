import DataLoader from 'dataloader';

/**
 * A DataLoader that also answers synchronously for keys it has already loaded in this request.
 * Per-row field resolvers use `peek` to return a value instead of a promise when a list primed the
 * loader for its page (issue 8: hundreds of promises per 100-row page otherwise).
 */
export class PeekLoader<K, V> extends DataLoader<K, V> {
  private readonly loaded: Map<K, V>;

  constructor(batch: (keys: readonly K[]) => Promise<V[]>) {
    const loaded = new Map<K, V>();
    super(async (keys) => {
      const values = await batch(keys);
      keys.forEach((k, i) => loaded.set(k, values[i]));
      return values;
    });
    this.loaded = loaded;
  }

  /** The value of a key loaded earlier in this request, else undefined. */
  peek(key: K): V | undefined {
    return this.loaded.get(key);
  }

  /** Stores a value loaded elsewhere (e.g. by a joined query that fills two loaders at once). */
  fill(key: K, value: V): void {
    this.loaded.set(key, value);
    this.prime(key, value);
  }

  /** Loads these keys now (one batch), so that later `peek`s answer without waiting. */
  async preload(keys: Iterable<K>): Promise<void> {
    const missing = [...new Set(keys)].filter((k) => !this.loaded.has(k));
    if (missing.length) await this.loadMany(missing);
  }
}
