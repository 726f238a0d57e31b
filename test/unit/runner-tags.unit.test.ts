import { normalizeTags } from '../../src/modules/runners/runner-tags';

describe('normalizeTags', () => {
  it('splits on commas, trims, drops blanks and duplicates, keeping the first order', () => {
    expect(normalizeTags(['ruby, mysql', ' ruby', ',,docker ', 'mysql'])).toEqual(['ruby', 'mysql', 'docker']);
  });

  it('is linear: 250,000 tags (what a 2 MB body holds) take well under a second', () => {
    const items = [Array.from({ length: 250_000 }, (_x, i) => `t${i}`).join(',')];
    const started = Date.now();
    expect(normalizeTags(items)).toHaveLength(250_000);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
