import { Migration } from '@mikro-orm/migrations';

/**
 * System hooks (GitLab 10.3 `/hooks`; docs/rest.md#system-hooks):
 * - `system_hooks`: one row per hook, with its delivery state: `(last_txid, last_event_id)` (delivered
 *   up to, in outbox order: core/events/system-events.ts), consecutive `failures`, `next_attempt_at` (backoff) and a lease (`lease_owner`,
 *   `lease_until`) so that one instance at a time delivers to a hook and a dead instance's claim lapses.
 * - `system_hook_events`: the outbox, appended on the changing write's transaction
 *   (core/events/system-events.ts); pruned once every hook has passed an event.
 * - `system_hook_logs`: the last deliveries per hook (kept: 50), read newest first.
 */
export class Migration20261203100000SystemHooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table system_hooks (
        id serial primary key,
        url text not null,
        token_sealed text,
        push_events boolean not null default true,
        tag_push_events boolean not null default false,
        repository_update_events boolean not null default false,
        enable_ssl_verification boolean not null default true,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        last_txid xid8 not null default '0',
        last_event_id bigint not null default 0,
        failures integer not null default 0,
        next_attempt_at timestamptz(3) not null default '-infinity',
        lease_owner text,
        lease_until timestamptz(3)
      );
      create table system_hook_events (
        id bigserial primary key,
        txid xid8 not null default pg_current_xact_id(),
        uuid uuid not null default gen_random_uuid(),
        event_name text not null,
        payload jsonb not null,
        created_at timestamptz(3) not null default now()
      );
      create table system_hook_logs (
        id bigserial primary key,
        hook_id integer not null references system_hooks (id) on delete cascade,
        event_id bigint,
        trigger text not null,
        url text not null,
        request_data jsonb not null,
        response_status integer,
        response_body text not null default '',
        execution_duration integer not null,
        internal_error_message text,
        created_at timestamptz(3) not null default now()
      );
      create index system_hook_logs_hook_id_id on system_hook_logs (hook_id, id desc);
      create index system_hook_events_txid_id on system_hook_events (txid, id);
    `);
  }
}
