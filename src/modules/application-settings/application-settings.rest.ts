import { defineRoutes } from '../../rest/route';
import { ApplicationSettingsWire } from './application-settings.presenter';
import { SETTINGS_RULES } from './application-settings.validation';

const tag = 'application settings';

/**
 * Spec 4.18a and 4.18. Parameters are derived from UpdateApplicationSettingsInput (itself built from
 * the catalogue); the rules are the catalogue's conditional requirements (Grape's `given`).
 */
export const applicationSettingsRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/application/settings',
    field: 'Query.applicationSettings',
    shape: ApplicationSettingsWire,
    summary: 'Get the application settings (admin)',
    tag,
  },
  {
    method: 'PUT',
    path: '/application/settings',
    field: 'Mutation.updateApplicationSettings',
    rules: SETTINGS_RULES,
    shape: ApplicationSettingsWire,
    summary: 'Change application settings (admin); at least one setting',
    tag,
  },
]);
