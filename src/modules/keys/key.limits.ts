/** What one user's SSH keys may hold (the write checks them; the GraphQL cost counts the key at its maximum). */

/** Key model: `validates :key, length: { maximum: 5000 }`. */
export const KEY_MAX = 5000;
/** SSH keys one user may have (ours; GitLab sets none): 1,000 keys of at most 5,000 characters. */
export const KEYS_PER_USER_MAX = 1000;
