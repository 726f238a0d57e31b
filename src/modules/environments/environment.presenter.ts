import { int, obj, shape, str } from '../../core/wire/wire';
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
