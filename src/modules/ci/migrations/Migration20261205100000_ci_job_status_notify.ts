import { Migration } from '@mikro-orm/migrations';

/**
 * Live job status (Subscription.ciJobStatusUpdated, docs/graphql.md#subscriptions-live-updates): jobs change status outside
 * this service (the CI system shares the database), so the table itself tells: each update that
 * changes a job's status NOTIFYs `ci_job_status` (job-status-changes.ts JOB_STATUS_CHANNEL) with
 * `{"id","runner_id","project_id","status"}`, delivered at commit, never for a rollback. Inserts do not
 * notify: a subscriber names a job that exists, and a pipeline's or a seed's bulk insert would queue
 * one notification per row for no one.
 */
export class Migration20261205100000CiJobStatusNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function ci_builds_notify_status() returns trigger language plpgsql as $$
      begin
        perform pg_notify('ci_job_status', json_build_object(
          'id', new.id, 'runner_id', new.runner_id, 'project_id', new.project_id, 'status', new.status)::text);
        return null;
      end $$;`);
    this.addSql(`
      create trigger ci_builds_status_changed after update of status on ci_builds
        for each row when (old.status is distinct from new.status) execute function ci_builds_notify_status();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists ci_builds_status_changed on ci_builds;');
    this.addSql('drop function if exists ci_builds_notify_status();');
  }
}
