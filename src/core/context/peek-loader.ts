import DataLoader from 'dataloader';

/** A value now, or a promise of it: what a field resolver answers through `PeekLoader.get`. */
export type Loaded<T> = T | Promise<T>;

/**
 * A DataLoader that also answers synchronously for keys it has already loaded in this request.
 * Per-row field resolvers call `get`, which returns the value instead of a promise when a list primed
 * the loader for its page (otherwise a promise per row and field), and `map` to go on from it. `preload` and
 * `fill` keep values in a plain map and give no key a promise of its own; `load` answers from that
 * map first, so whichever way a key arrived, it is fetched once per request.
 */
export class PeekLoader<K, V> extends DataLoader<K, V> {
  private readonly loaded: Map<K, V>;
  /** The running `preload` batches: their keys and their end (usually none or one). */
  private readonly running: { keys: Set<K>; done: Promise<void> }[] = [];
  private readonly fetch: (keys: readonly K[]) => Promise<V[]>;

  constructor(batch: (keys: readonly K[]) => Promise<V[]>) {
    const loaded = new Map<K, V>();
    super(async (keys) => {
      const values = await batch(keys);
      keys.forEach((k, i) => loaded.set(k, values[i]));
      return values;
    });
    this.loaded = loaded;
    this.fetch = batch;
  }

  /** The value of a key loaded earlier in this request, else undefined. */
  peek(key: K): V | undefined {
    return this.loaded.get(key);
  }

  /** The key's value: at once when loaded earlier in this request, else a promise (one batch per tick). */
  get(key: K): Loaded<V> {
    return this.loaded.has(key) ? (this.loaded.get(key) as V) : this.load(key);
  }

  /** `f` of the key's value, synchronously when it is loaded already. */
  map<T>(key: K, f: (value: V) => T): Loaded<T> {
    return this.loaded.has(key) ? f(this.loaded.get(key) as V) : this.load(key).then(f);
  }

  /** The running preload batch fetching this key, if any. */
  private batchOf(key: K): Promise<void> | undefined {
    for (const b of this.running) if (b.keys.has(key)) return b.done;
    return undefined;
  }

  override load(key: K): Promise<V> {
    if (this.loaded.has(key)) return Promise.resolve(this.loaded.get(key) as V);
    const batch = this.running.length ? this.batchOf(key) : undefined;
    if (batch) return batch.then(() => (this.loaded.has(key) ? (this.loaded.get(key) as V) : super.load(key)));
    return super.load(key);
  }

  /**
   * The values of these keys that are not null, in key order (a batch error is thrown): what
   * `node(id)`/`nodes(ids)` answer from the same loader the object links use, so a node and a link to
   * the same row in one request are one statement.
   */
  async loadPresent(keys: readonly K[]): Promise<NonNullable<V>[]> {
    const values = (await Promise.all(keys.map((k) => this.load(k)))) as V[];
    const out: NonNullable<V>[] = [];
    for (const v of values) if (v !== null && v !== undefined) out.push(v as NonNullable<V>);
    return out;
  }

  /** Stores a value loaded elsewhere (e.g. by a joined query that fills two loaders at once). */
  fill(key: K, value: V): void {
    this.loaded.set(key, value);
  }

  override clear(key: K): this {
    this.loaded.delete(key);
    return super.clear(key);
  }

  override clearAll(): this {
    this.loaded.clear();
    return super.clearAll();
  }

  /** Loads these keys now (one batch for those not loaded yet), so that later `peek`s answer without waiting. */
  async preload(keys: Iterable<K>): Promise<void> {
    const missing = new Set<K>();
    const waits = new Set<Promise<void>>();
    for (const k of keys) {
      if (this.loaded.has(k) || missing.has(k)) continue;
      const batch = this.running.length ? this.batchOf(k) : undefined;
      if (batch) waits.add(batch);
      else missing.add(k);
    }
    if (missing.size) {
      const list = [...missing];
      const entry = { keys: missing, done: Promise.resolve() };
      entry.done = this.fetch(list)
        .then((values) => {
          for (let i = 0; i < list.length; i += 1) this.loaded.set(list[i], values[i]);
        })
        .finally(() => {
          this.running.splice(this.running.indexOf(entry), 1);
        });
      this.running.push(entry);
      waits.add(entry.done);
    }
    await Promise.all(waits);
  }
}
