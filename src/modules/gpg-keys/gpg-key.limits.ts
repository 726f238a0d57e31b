/** What one user's GPG keys may hold (the write checks them; the GraphQL cost counts the key at its maximum). */

/**
 * Longest key accepted (GitLab has no limit; its column is text): 64 KiB holds an RSA 4096 key with
 * its subkeys, user ids and a few hundred certifications (a usual key is 1-10 KB). A key carrying more
 * third-party signatures is exported without them: `gpg --armor --export-options export-minimal --export <id>`.
 */
export const KEY_MAX_LENGTH = 65_536;
/** GPG keys one user may have (ours; GitLab sets none): with KEY_MAX_LENGTH, at most 6.4 MB per user. */
export const KEYS_PER_USER_MAX = 100;
