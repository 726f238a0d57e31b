import { defineModule } from '../../core/module/app-module';
import { ApplicationSettings, UserRequestIp } from './application-settings.entity';
import { ApplicationSettingsResolver } from './application-settings.resolver';
import { applicationSettingsRoutes } from './application-settings.rest';
import { Migration20261122100000ApplicationSettings } from './migrations/Migration20261122100000_application_settings';
import { SECRET_SETTINGS, sealedColumn, switchesNeeding } from './application-settings.secrets';
import { newRunnersToken } from './application-settings.store';
import { UNIQUE_IPS_PRUNE_MS, startRequestIpsPrune } from './unique-ips';
import { Migration20261202110000ApplicationSettingsThrottles } from './migrations/Migration20261202110000_application_settings_throttles';
import { Migration20261203090000AllowLocalRequests } from './migrations/Migration20261203090000_allow_local_requests';
import { Migration20261203150000ApplicationSettings103 } from './migrations/Migration20261203150000_application_settings_10_3';
import { Migration20261123100000ApplicationSettingsSecrets } from './migrations/Migration20261123100000_application_settings_secrets';
import { Migration20261209090100ThrottlesCacheNotify } from './migrations/Migration20261209090100_throttles_cache_notify';

export { matchesRunnersRegistrationToken } from './runners-registration-token';
export { localRequestsFromSystemHooksAllowed } from './application-settings.store';
export { knownThrottleConfig, throttleConfig } from './throttles';
export { UNIQUE_IPS_COLUMNS, UNIQUE_IPS_JOIN, uniqueIpsRefusal, type UniqueIpsLimit } from './unique-ips';
export {
  defaultVisibilityLevel,
  newUserDefaults,
  sharedRunnersDefault,
  visibilityRestriction,
} from './application-settings.effects';

/** Application settings (spec 4.18): GET/PUT /application/settings, GraphQL applicationSettings. */
export const applicationSettingsModule = defineModule({
  name: 'application-settings',
  entities: [ApplicationSettings, UserRequestIp],
  migrations: [
    { name: 'Migration20261122100000_application_settings', class: Migration20261122100000ApplicationSettings },
    {
      name: 'Migration20261123100000_application_settings_secrets',
      class: Migration20261123100000ApplicationSettingsSecrets,
    },
    {
      name: 'Migration20261202110000_application_settings_throttles',
      class: Migration20261202110000ApplicationSettingsThrottles,
    },
    { name: 'Migration20261203090000_allow_local_requests', class: Migration20261203090000AllowLocalRequests },
    { name: 'Migration20261203150000_application_settings_10_3', class: Migration20261203150000ApplicationSettings103 },
    { name: 'Migration20261209090100_throttles_cache_notify', class: Migration20261209090100ThrottlesCacheNotify },
  ],
  resolvers: [ApplicationSettingsResolver],
  routes: applicationSettingsRoutes,
  // Addresses past the unique-IPs window, of users who stopped calling (unique-ips.ts).
  background: (env) => startRequestIpsPrune(env),
  settings: [UNIQUE_IPS_PRUNE_MS],
  sealed: [
    {
      table: 'application_settings',
      column: 'runners_registration_token_sealed',
      rowKey: 'id',
      digestColumn: 'runners_registration_token_digest',
      // A lost key: a new registration token, as POST /runners/reset_registration_token gives.
      resetLost: {
        renew: newRunnersToken,
        note: 'the instance runner registration token is new (GET /application/settings)',
      },
    },
    // A lost key: the credential is gone (null) and the switch that needs it is off.
    ...SECRET_SETTINGS.map((s) => ({
      table: 'application_settings',
      column: sealedColumn(s),
      rowKey: 'id',
      resetLost: { alsoSet: switchesNeeding(s) },
    })),
  ],
});
export { applicationSettingsService, currentSettings } from './application-settings.service';
