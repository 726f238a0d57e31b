import { normalizeTags } from '../../src/modules/runners/runner-tags';

describe('normalizeTags', () => {
  it('splits on commas, trims, drops blanks and duplicates, keeping the first order', () => {
    expect(normalizeTags(['ruby, mysql', ' ruby', ',,docker ', 'mysql'])).toEqual(['ruby', 'mysql', 'docker']);
  });

  it('takes the 250,000 tags a 2 MB body holds, duplicates dropped', () => {
    // No clock here (a ratio of timings flaked at 43 against 40 on a busy machine): linear work takes
    // tens of milliseconds, a quadratic dedup 3·10^10 comparisons, far past the test's timeout.
    const tags = Array.from({ length: 250_000 }, (_x, i) => `t${i}`);
    const out = normalizeTags([tags.join(','), tags.slice(0, 1000).join(', ')]);
    expect([out.length, out[0], out[249_999]]).toEqual([250_000, 't0', 't249999']);
  });
});
