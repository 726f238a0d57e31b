import { Migration } from '@mikro-orm/migrations';

/**
 * The job-status notice carries the job's id only, as `{"id":<n>}` written by concatenation (one fixed
 * text per job): every subscriber of Subscription.ciJobStatusUpdated receives every notice and tells
 * its own by comparing that text, without parsing (job-status-changes.ts). The runner, project and
 * status it carried before were read by no one: the job is read again at delivery.
 */
export class Migration20261208100000CiJobStatusNotifyId extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function ci_builds_notify_status() returns trigger language plpgsql as $$
      begin
        perform pg_notify('ci_job_status', '{"id":' || new.id || '}');
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create or replace function ci_builds_notify_status() returns trigger language plpgsql as $$
      begin
        perform pg_notify('ci_job_status', json_build_object(
          'id', new.id, 'runner_id', new.runner_id, 'project_id', new.project_id, 'status', new.status)::text);
        return null;
      end $$;`);
  }
}
