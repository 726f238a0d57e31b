import { Migration } from '@mikro-orm/migrations';

/** GitLab 10.3's rate-limit settings (catalogue: `throttle(...)`); in effect through core/http/rate-limit.ts. */
const THROTTLES = ['unauthenticated', 'authenticated_api', 'authenticated_web'];

export class Migration20261202110000ApplicationSettingsThrottles extends Migration {
  override async up(): Promise<void> {
    const cols = THROTTLES.flatMap((t) => [
      `add column throttle_${t}_enabled boolean not null default false`,
      `add column throttle_${t}_requests_per_period integer not null default 3600`,
      `add column throttle_${t}_period_in_seconds integer not null default 3600`,
    ]);
    this.addSql(`alter table application_settings ${cols.join(', ')};`);
  }
}
