import { bool, int, list, lowerEnum, shape, str, strList, time } from '../../core/wire/wire';
import { ProjectSimpleWire } from '../projects';
import { RUNNER_ACCESS_LEVEL_REST_VALUES } from './runner.type';

/** GitLab 10.3 Entities::Runner: lists and the enable response (spec 2.1). */
export const RunnerWire = shape('Runner', {
  id: int('id'),
  description: str('description'),
  active: bool('active'),
  is_shared: bool('isShared'),
  name: str('name', { nullable: true }),
});

/**
 * Entities::RunnerDetails: get and update. `token` is absent (not null) for a shared runner seen by a
 * non-admin; `projects` are BasicProjectDetails.
 */
export const RunnerDetailWire = shape('RunnerDetails', {
  ...RunnerWire.fields,
  tag_list: strList('tagList'),
  run_untagged: bool('runUntagged'),
  locked: bool('locked'),
  access_level: lowerEnum('accessLevel', RUNNER_ACCESS_LEVEL_REST_VALUES),
  version: str('version', { nullable: true }),
  revision: str('revision', { nullable: true }),
  platform: str('platform', { nullable: true }),
  architecture: str('architecture', { nullable: true }),
  contacted_at: time('contactedAt', { nullable: true }),
  token: str('token', { omitIfNull: true }),
  projects: list('detailProjects', ProjectSimpleWire),
});

/** POST /runners: Entities::RunnerRegistrationDetails. */
export const RunnerRegistrationWire = shape('RunnerRegistrationDetails', { id: int('id'), token: str('token') });

/** POST /user/runners: current GitLab's Entities::Ci::RunnerRegistrationDetails. */
export const RunnerCreationWire = shape('RunnerCreation', {
  id: int('id'),
  token: str('token'),
  token_expires_at: time('tokenExpiresAt', { nullable: true }),
});
