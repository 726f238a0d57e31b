/**
 * A token works until it is revoked or its expires_at day has come (GitLab's `active?`), written
 * once for SQL (authentication, the state filter; `?` is today's date) and once in code (the `active` key).
 */
export const activeTokenSql = (alias: string) =>
  `(not ${alias}.revoked and (${alias}.expires_at is null or ${alias}.expires_at > ?::date))`;

export function isTokenActive(t: { revoked: boolean; expiresAt: string | null }, today: string): boolean {
  return !t.revoked && (t.expiresAt === null || t.expiresAt > today);
}
