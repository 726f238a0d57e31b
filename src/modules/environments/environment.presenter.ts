import { int, list, obj, shape, str, time } from '../../core/wire/wire';
import { ProjectSimpleWire } from '../projects';

/**
 * GitLab 10.x `Entities::Environment` (EnvironmentBasic + project as BasicProjectDetails), plus
 * `state` as later GitLab exposes it (spec 2.8).
 */
export const EnvironmentWire = shape('Environment', {
  id: int('id'),
  name: str('name'),
  slug: str('slug'),
  external_url: str('externalUrl', { nullable: true }),
  project: obj('project', ProjectSimpleWire),
  state: str('state'),
});

/** GitLab's Entities::EnvironmentBasic (the review apps deletion's entries). */
export const EnvironmentBasicWire = shape('EnvironmentBasic', {
  id: int('id'),
  name: str('name'),
  slug: str('slug'),
  external_url: str('externalUrl', { nullable: true }),
  created_at: time(),
  updated_at: time(),
});

/** DELETE /projects/:id/environments/review_apps. */
export const ReviewAppsDeletionWire = shape('ReviewAppsDeletion', {
  scheduled_entries: list(EnvironmentBasicWire),
  unprocessable_entries: list(EnvironmentBasicWire),
});

/** POST /projects/:id/environments/stop_stale. */
export const StaleEnvironmentsStopWire = shape('StaleEnvironmentsStop', { message: str() });
