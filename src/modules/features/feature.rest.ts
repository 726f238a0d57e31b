import type { ParamSpec } from '../../core/params/coerce';
import { defineRoutes } from '../../rest/route';
import { FeatureWire } from './feature.presenter';

const NAME: Record<string, ParamSpec> = { name: { type: 'string', description: 'letters, digits and _' } };
const tag = 'features';

/**
 * Spec 4.35–4.36 and later GitLab's DELETE (administrators only: the root fields' @Allow).
 * python-gitlab 3.x calls `GET /features/` and `POST /features//<name>`; app.ts normalises both.
 */
export const featureRoutes = defineRoutes([
  { method: 'GET', path: '/features', field: 'Query.features', shape: FeatureWire, summary: 'List every persisted feature (admin; not paginated)', tag },
  {
    method: 'POST', path: '/features/:name', field: 'Mutation.setFeatureGate',
    params: {
      ...NAME,
      // JSON true / 50 (python-gitlab) arrive as the strings "true" / "50", as Grape's String coercion gives them.
      value: { type: 'string', required: true, arg: 'input.value', description: 'true, false, 0, or an integer percentage' },
      key: { type: 'string', arg: 'input.key', description: 'percentage_of_actors or percentage_of_time (default)' },
      feature_group: { type: 'string', arg: 'input.featureGroup' },
      user: { type: 'string', arg: 'input.user', description: 'a username' },
    },
    shape: FeatureWire, summary: 'Set a gate value, creating the feature when new (admin); always 201', tag,
  },
  { method: 'DELETE', path: '/features/:name', field: 'Mutation.deleteFeature', params: NAME, summary: 'Delete a feature: it answers its default again (admin)', tag },
]);
