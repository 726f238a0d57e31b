import { generateSlug } from '../../src/modules/environments/environment-slug';

/** Always picks the same character index: suffix "aaaaaa" (0) or "999999" (35). */
const fixed = (i: number) => () => i;

describe('generateSlug (spec 2.8, GitLab 10.x rules)', () => {
  it.each([
    ['production', 'production'],
    ['Production', 'production-aaaaaa'],
    ['review/fix-foo', 'review-fix-foo-aaaaaa'],
    ['1.0', 'env-1-0-aaaaaa'],
  ])('the documented example %s → %s', (name, slug) => {
    expect(generateSlug(name, fixed(0))).toBe(slug);
  });

  it.each([
    ['staging-2', 'staging-2'],
    ['a', 'a'],
    ['123', 'env-123-aaaaaa'],
    ['9to5', 'env-9to5-aaaaaa'],
    ['-lead', 'env-lead-aaaaaa'],
    ['trailing-', 'trailing-aaaaaa'],
    ['a--b', 'a-b-aaaaaa'],
    ['exactly-twenty-four-char', 'exactly-twenty-four-char'],
    ['exactly-twenty-four-chars', 'exactly-twenty-fo-aaaaaa'],
    ['abcdefghijklmnopqrstuvwxyz', 'abcdefghijklmnopq-aaaaaa'],
    ['abcdefghijklmnop-rstuvwxyz', 'abcdefghijklmnop-aaaaaa'],
    ['Ünïcödé env', 'env-n-c-d-env-aaaaaa'],
    ['prod 🚀', 'prod-aaaaaa'],
    ['', 'env-aaaaaa'],
    ['${CI_COMMIT_REF}', 'env-ci-commit-ref-aaaaaa'],
  ])('edge case %p → %p', (name, slug) => {
    expect(generateSlug(name, fixed(0))).toBe(slug);
  });

  it('draws six suffix characters from a-z0-9 through the injected source', () => {
    const picks = [0, 25, 26, 35, 1, 2];
    let i = 0;
    expect(generateSlug('Review', (max) => (expect(max).toBe(36), picks[i++]))).toBe('review-az09bc');
  });

  it('always yields a valid slug: lowercase letter first, [a-z0-9-], no trailing dash, at most 24', () => {
    for (const name of ['X', '___', 'a/b/c/d/e/f/g/h/i/j/k/l/m', '0', 'A-', 'ZZ top', 'ñ', '$ {}', 'x'.repeat(300)]) {
      const slug = generateSlug(name, fixed(35));
      expect(slug).toMatch(/^[a-z]([a-z0-9-]*[a-z0-9])?$/);
      expect(slug.length).toBeLessThanOrEqual(24);
    }
  });
});
