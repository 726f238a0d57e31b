/** A user's profile page (`web_url` of users and members). */
export function userWebUrl(externalUrl: string, username: string): string {
  return `${externalUrl}/${username}`;
}
