import { Migration } from '@mikro-orm/migrations';

/**
 * Access requests (GitLab 10.3's access_requests.rb). GitLab keeps them as member rows with
 * `requested_at`; here they are their own table, so no membership query can mistake a request for
 * access. One request per user and source; lists by source in request order.
 */
export class Migration20261203170000AccessRequests extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table access_requests (
        id serial primary key,
        source_type text not null check (source_type in ('group', 'project')),
        source_id integer not null,
        user_id integer not null references users (id) on delete cascade,
        requested_at timestamptz(3) not null default now()
      );
      create unique index access_requests_source_user on access_requests (source_type, source_id, user_id);
      create index access_requests_user on access_requests (user_id);
    `);
  }
}
