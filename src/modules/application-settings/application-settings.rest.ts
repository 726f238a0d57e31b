import { defineRoutes } from '../../rest/route';
import { ApplicationSettingsWire, ResetTokenResultWire } from './application-settings.presenter';
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
  {
    // Later GitLab's runners API (deprecated since 15.6, still served): the instance registration token.
    method: 'POST',
    path: '/runners/reset_registration_token',
    field: 'Mutation.resetRunnersRegistrationToken',
    shape: ResetTokenResultWire,
    summary: 'Reset the instance runner registration token (admin)',
    tag: 'runners',
  },
]);
