import { json, list, lowerEnum, shape, str } from '../../core/wire/wire';
import { FEATURE_STATE_REST_VALUES } from './feature.type';

/** GitLab's Entities::FeatureGate and Entities::Feature (spec 2.9). */
export const FeatureGateWire = shape('FeatureGate', { key: str('key'), value: json('value') });

export const FeatureWire = shape('Feature', {
  name: str('name'),
  state: lowerEnum('state', FEATURE_STATE_REST_VALUES),
  gates: list('gates', FeatureGateWire),
});
