import { normalizeTags } from '../../src/modules/runners/runner-tags';

describe('normalizeTags', () => {
  it('splits on commas, trims, drops blanks and duplicates, keeping the first order', () => {
    expect(normalizeTags(['ruby, mysql', ' ruby', ',,docker ', 'mysql'])).toEqual(['ruby', 'mysql', 'docker']);
  });

  it('is linear: ten times the tags (up to the 250,000 a 2 MB body holds) cost about ten times as much, not a hundred', () => {
    // A ratio of two sizes in one run, not a wall-clock limit (a busy machine slows both alike):
    // linear work grows 10x, a quadratic dedup would grow 100x.
    const cost = (n: number) => {
      const items = [Array.from({ length: n }, (_x, i) => `t${i}`).join(',')];
      let best = Infinity;
      for (let round = 0; round < 3; round += 1) {
        const started = process.hrtime.bigint();
        expect(normalizeTags(items)).toHaveLength(n);
        best = Math.min(best, Number(process.hrtime.bigint() - started));
      }
      return best;
    };
    cost(25_000); // warm-up
    expect(cost(250_000) / cost(25_000)).toBeLessThan(40);
  });
});
