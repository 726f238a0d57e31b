import { PeekLoader } from '../../src/core/context/peek-loader';

/** A loader over `id → id * 10` that records every batch it is asked for. */
function loader() {
  const batches: number[][] = [];
  const l = new PeekLoader<number, number | null>(async (ids) => {
    batches.push([...ids]);
    return ids.map((id) => (id < 0 ? null : id * 10));
  });
  return { l, batches };
}

describe('PeekLoader', () => {
  it('preloads once per key, then answers peek and load without fetching again', async () => {
    const { l, batches } = loader();
    expect(l.peek(1)).toBeUndefined();
    await l.preload([1, 2, 2, -1]);
    expect(batches).toEqual([[1, 2, -1]]);
    expect([l.peek(1), l.peek(2), l.peek(-1)]).toEqual([10, 20, null]);
    expect(await l.load(2)).toBe(20);
    expect(await l.load(-1)).toBeNull();
    await l.preload([1, 3]);
    expect(batches).toEqual([[1, 2, -1], [3]]);
  });

  it('a load or a preload during a running preload waits for it instead of fetching the key again', async () => {
    const { l, batches } = loader();
    const first = l.preload([1, 2]);
    const [a, b] = await Promise.all([l.load(1), l.preload([2, 4]).then(() => l.peek(4)), first]);
    expect([a, b]).toEqual([10, 40]);
    expect(batches).toEqual([[1, 2], [4]]);
  });

  it('fill stores a value loaded elsewhere; clear and clearAll forget values', async () => {
    const { l, batches } = loader();
    l.fill(7, 70);
    expect(l.peek(7)).toBe(70);
    expect(await l.load(7)).toBe(70);
    l.clear(7);
    expect(l.peek(7)).toBeUndefined();
    expect(await l.load(7)).toBe(70);
    expect(batches).toEqual([[7]]);
    l.clearAll();
    expect(l.peek(7)).toBeUndefined();
  });

  it('a failed preload rejects and leaves nothing running', async () => {
    let fail = true;
    const l = new PeekLoader<number, number>(async (ids) => {
      if (fail) throw new Error('down');
      return ids.map((id) => id);
    });
    await expect(l.preload([1])).rejects.toThrow('down');
    fail = false;
    expect(await l.load(1)).toBe(1);
  });
});
