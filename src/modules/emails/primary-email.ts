import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../core/db/sql';

/**
 * GitLab 10.3's User#update_emails_with_primary_email, for the users service on the write's
 * transaction when a user's primary e-mail changes: the new primary stops being one of the user's
 * secondary addresses, and the previous primary becomes one (confirmed when the user is: here always,
 * users being created confirmed). Without a mail sent, this is all of it.
 */
export async function primaryEmailChanged(
  em: EntityManager,
  userId: number,
  previous: string,
  current: string,
  confirmedAt: Date,
  now: Date,
): Promise<void> {
  await sqlRows(
    em,
    `with gone as (delete from emails where user_id = ? and lower(email) = lower(?))
     insert into emails (user_id, email, confirmed_at, created_at, updated_at) values (?, lower(trim(?)), ?, ?, ?) on conflict do nothing`,
    [userId, current, userId, previous, confirmedAt, now, now],
  );
}
