import { json, list, lowerEnum, shape, str } from '../../core/wire/wire';
import { FEATURE_STATE_REST_VALUES } from './feature.type';

/** GitLab's Entities::FeatureGate and Entities::Feature (spec 2.9). */
export const FeatureGateWire = shape('FeatureGate', { key: str(), value: json() });

export const FeatureWire = shape('Feature', {
  name: str(),
  state: lowerEnum(FEATURE_STATE_REST_VALUES),
  gates: list(FeatureGateWire),
});
