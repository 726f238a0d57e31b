import { defineRoutes } from '../../rest/route';
import { KEY_EXCLUSIVE_WITH } from './feature-value';
import { FeatureWire } from './feature.presenter';

const tag = 'features';

/**
 * Spec 4.35–4.36 and later GitLab's DELETE (administrators only: the root fields' @Allow); the
 * parameters derive from setFeatureGate's arguments. python-gitlab 3.x calls `GET /features/` and
 * `POST /features//<name>` with JSON `true` / `50`: app.ts normalises the paths, and the string
 * coercion turns the values into "true" / "50" as Grape does.
 */
export const featureRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/features',
    field: 'Query.featureList',
    shape: FeatureWire,
    summary: 'List every persisted feature (admin; not paginated)',
    tag,
  },
  {
    method: 'POST',
    path: '/features/:name',
    field: 'Mutation.setFeatureGate',
    rules: KEY_EXCLUSIVE_WITH.map((p) => ({ mutuallyExclusive: ['key', p] })),
    shape: FeatureWire,
    summary: 'Set a gate value, creating the feature when new (admin); always 201',
    tag,
  },
  {
    method: 'DELETE',
    path: '/features/:name',
    field: 'Mutation.deleteFeature',
    summary: 'Delete a feature: it answers its default again (admin)',
    tag,
  },
]);
