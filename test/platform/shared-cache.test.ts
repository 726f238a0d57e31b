import { once } from 'node:events';
import { SHARED_CACHE_MAX_ENTRIES, createSharedCache } from '../../src/core/db/shared-cache';
import { useTestApp } from '../support/test-app';
import { waitFor } from '../reliability/fault-support';
import { backendsNamed, freezeBackend, namedConnection } from '../support/pg-backends';

/** core/db/shared-cache: app-scoped caching that stays correct across instances on one database. */
describe('shared cache (LISTEN/NOTIFY invalidation)', () => {
  const t = useTestApp({ reset: 'once' });

  it('serves a cached value until another instance invalidates it, then loads again', async () => {
    const b = await t.secondInstance();
    expect(await b.cache.get('k1', async () => 'v1')).toBe('v1');
    expect(await b.cache.get('k1', async () => 'v2')).toBe('v1'); // cached

    const applied = once(b.cache.events, 'invalidated');
    await t.cache.invalidate(t.orm.em.fork(), 'k1');
    expect(await applied).toEqual(['k1']);
    expect(await b.cache.get('k1', async () => 'v2')).toBe('v2');
  });

  it('notifies other instances at commit, and not at all for a rolled-back write', async () => {
    const b = await t.secondInstance();
    await b.cache.get('k2', async () => 'old');
    const em = t.orm.em.fork();
    await em
      .transactional(async (tx) => {
        await t.cache.invalidate(tx, 'k2');
        // Not committed yet: the other instance still serves its entry.
        expect(await b.cache.get('k2', async () => 'new')).toBe('old');
        throw new Error('roll back');
      })
      .catch((e: Error) => expect(e.message).toBe('roll back'));
    // A later committed invalidation of another key arrives; k2's was never delivered.
    const applied = once(b.cache.events, 'invalidated');
    await t.cache.invalidate(t.orm.em.fork(), 'other');
    expect(await applied).toEqual(['other']);
    expect(await b.cache.get('k2', async () => 'new')).toBe('old');

    const committed = once(b.cache.events, 'invalidated');
    await em.transactional((tx) => t.cache.invalidate(tx, 'k2'));
    expect(await committed).toEqual(['k2']);
    expect(await b.cache.get('k2', async () => 'new')).toBe('new');
  });

  it('forgets an entry locally at once, and does not keep a load that raced an invalidation', async () => {
    expect(await t.cache.get('k3', async () => 1)).toBe(1);
    await t.cache.invalidate(t.orm.em.fork(), 'k3');
    expect(await t.cache.get('k3', async () => 2)).toBe(2);

    let release!: () => void;
    const slow = t.cache.get('k4', () => new Promise<string>((r) => (release = () => r('stale'))));
    await t.cache.invalidate(t.orm.em.fork(), 'k4');
    release();
    expect(await slow).toBe('stale'); // the caller that started before the write gets its value
    expect(await t.cache.get('k4', async () => 'fresh')).toBe('fresh'); // but it was not kept
  });

  it('tagged entries: forgotten with any of their tags, here or from another instance; a load racing any invalidation is not kept', async () => {
    const tags = (v: string) => ['tag-a', `tag-${v}`];
    expect(await t.cache.get('k6', async () => 'x', { tags })).toBe('x');
    expect(await t.cache.get('k6', async () => 'y', { tags })).toBe('x'); // cached
    t.cache.forgetHere('tag-x');
    expect(await t.cache.get('k6', async () => 'y', { tags })).toBe('y');
    expect(await t.cache.get('k7', async () => 'z', { tags })).toBe('z');
    const b = await t.secondInstance();
    const applied = once(t.cache.events, 'invalidated');
    await b.cache.invalidate(t.orm.em.fork(), 'tag-a'); // from the other instance: both k6 and k7 go
    await applied;
    expect(await t.cache.get('k6', async () => 'y2', { tags })).toBe('y2');
    expect(await t.cache.get('k7', async () => 'z2', { tags })).toBe('z2');

    // The tags of a loading entry are unknown until it loads: any invalidation meanwhile drops it.
    let release!: () => void;
    const slow = t.cache.get('k8', () => new Promise<string>((r) => (release = () => r('stale'))), { tags });
    t.cache.forgetHere('tag-stale');
    release();
    expect(await slow).toBe('stale');
    expect(await t.cache.get('k8', async () => 'fresh', { tags })).toBe('fresh');
  });

  it('a tagged load is not shared while it runs: a get after an invalidation never gets the answer of a load that started before it', async () => {
    const tags = (v: string) => [`tag-${v}`];
    let release!: () => void;
    const early = t.cache.get('k10', () => new Promise<string>((r) => (release = () => r('before'))), { tags });
    t.cache.forgetHere('tag-before'); // e.g. the user's token is revoked while the first lookup runs
    const late = t.cache.get('k10', async () => 'after', { tags });
    release();
    expect(await early).toBe('before');
    expect(await late).toBe('after');
    expect(await t.cache.get('k10', async () => 'again', { tags })).toBe('after');
  });

  it('an entry with a time to live is loaded again once it has passed', async () => {
    expect(await t.cache.get('k9', async () => 1, { ttlMs: 500 })).toBe(1);
    expect(await t.cache.get('k9', async () => 2, { ttlMs: 500 })).toBe(1);
    await new Promise((r) => setTimeout(r, 600));
    expect(await t.cache.get('k9', async () => 3, { ttlMs: 500 })).toBe(3);
  });

  it('a LISTEN connection that stops answering (no FIN: a frozen server process) is replaced; meanwhile nothing stale is served', async () => {
    const name = `heartbeat-${process.pid}`;
    const cache = createSharedCache({
      connectionString: namedConnection(t, name),
      heartbeatMs: 200,
      heartbeatTimeoutMs: 400,
    });
    let thaw: (() => Promise<void>) | undefined;
    try {
      await cache.ready();
      expect(await cache.get('hb', async () => 'before')).toBe('before');
      expect(await cache.get('hb', async () => 'after')).toBe('before'); // cached: the connection listens
      const [frozen] = await backendsNamed(t, name);
      // The server process of the LISTEN connection stops: the socket stays open, nothing is delivered.
      thaw = freezeBackend(t, frozen);
      await t.cache.invalidate(t.orm.em.fork(), 'hb'); // committed, but never reaches the frozen connection
      // Within a heartbeat and its timeout the connection counts as lost: the entry goes, loads are not kept.
      await waitFor(
        'the stale entry dropped',
        async () => (await cache.get('hb', async () => 'after')) === 'after',
        5000,
      );
      // A new connection listens again, and its entries are invalidated as before.
      await cache.ready();
      await waitFor(
        'a second LISTEN connection',
        async () => (await backendsNamed(t, name)).some((pid) => pid !== frozen),
        5000,
      );
      expect(await cache.get('hb2', async () => 1)).toBe(1);
      expect(await cache.get('hb2', async () => 2)).toBe(1);
      const applied = once(cache.events, 'invalidated');
      await t.cache.invalidate(t.orm.em.fork(), 'hb2');
      expect(await applied).toEqual(['hb2']);
      expect(await cache.get('hb2', async () => 3)).toBe(3);
    } finally {
      await thaw?.();
      await cache.close();
    }
  });

  it('peek answers what get would answer, without waiting: nothing while loading, nothing once invalidated here or elsewhere', async () => {
    const b = await t.secondInstance();
    expect(b.cache.peek('p1')).toBeUndefined();
    let release!: () => void;
    const loading = b.cache.get('p1', () => new Promise<string>((r) => (release = () => r('v1'))));
    expect(b.cache.peek('p1')).toBeUndefined(); // not loaded yet: the caller uses get
    release();
    expect(await loading).toBe('v1');
    expect(b.cache.peek('p1')).toBe('v1');
    const applied = once(b.cache.events, 'invalidated');
    await t.cache.invalidate(t.orm.em.fork(), 'p1'); // another instance's committed write
    expect(await applied).toEqual(['p1']);
    expect(b.cache.peek('p1')).toBeUndefined();
    // A load that failed is not an answer either.
    await expect(b.cache.get('p2', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(b.cache.peek('p2')).toBeUndefined();
    // Tagged entries: known once loaded, gone with their tag.
    expect(await b.cache.get('p3', async () => 'v3', { tags: () => ['p-tag'] })).toBe('v3');
    expect(b.cache.peek('p3')).toBe('v3');
    const tagged = once(b.cache.events, 'invalidated');
    await t.cache.invalidate(t.orm.em.fork(), 'p-tag');
    expect(await tagged).toEqual(['p-tag']);
    expect(b.cache.peek('p3')).toBeUndefined();
    // An entry read only through peek counts as used: it outlives the bound's least recently used drops.
    expect(await b.cache.get('p5', async () => 'v5')).toBe('v5');
    for (let i = 0; i < SHARED_CACHE_MAX_ENTRIES; i += 1) {
      await b.cache.get(`filler-${i}`, async () => i);
      if (i % 1000 === 0) expect(b.cache.peek('p5')).toBe('v5');
    }
    expect(b.cache.peek('p5')).toBe('v5');
    expect(b.cache.peek('filler-0')).toBeUndefined(); // the bound did drop the least recently used
    // Closed (no LISTEN connection): nothing is known.
    expect(await b.cache.get('p4', async () => 'v4')).toBe('v4');
    expect(b.cache.peek('p4')).toBe('v4');
    await b.close();
    expect(b.cache.peek('p4')).toBeUndefined();
  });

  it('caches nothing once closed (no LISTEN connection, no stale reads)', async () => {
    const b = await t.secondInstance();
    await b.close();
    expect(await b.cache.get('k5', async () => 'a')).toBe('a');
    expect(await b.cache.get('k5', async () => 'b')).toBe('b');
  });
});
