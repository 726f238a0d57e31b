import type { RandomInt } from '../../core/context/request-ctx';

const SUFFIX_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The environment slug, exactly as GitLab 10.x generates it (gitlab-compatibility: spec 2.8):
 * lowercase, everything outside a-z0-9 becomes '-', 'env-' prefix unless it starts with a letter,
 * dashes squeezed, at most 24 characters, no trailing dash; when the result differs from the name
 * at all, it is cut to 17 characters and gets '-' and 6 random characters (from `random`).
 */
export function generateSlug(name: string, random: RandomInt): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/gu, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, '-').slice(0, 24);
  if (slug.endsWith('-')) slug = slug.slice(0, -1);
  if (slug !== name) {
    slug = slug.slice(0, 17);
    if (!slug.endsWith('-')) slug += '-';
    for (let i = 0; i < 6; i += 1) slug += SUFFIX_CHARS[random(SUFFIX_CHARS.length)];
  }
  return slug;
}
