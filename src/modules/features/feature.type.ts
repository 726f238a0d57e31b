import { PageType } from '../../core/pagination/page';
import { Node } from '../../core/graphql/node';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import type { GateValue } from './feature-gates';

export enum FeatureState {
  ON = 'ON',
  OFF = 'OFF',
  CONDITIONAL = 'CONDITIONAL',
}
registerEnumType(FeatureState, {
  name: 'FeatureState',
  description: 'ON when fully enabled, CONDITIONAL when some gate is set, else OFF.',
});
export const FEATURE_STATE_REST_VALUES = ['on', 'off', 'conditional'] as const;

@ObjectType('FeatureGate', { description: 'One gate of a feature.' })
export class FeatureGateType {
  @Field(() => String, { description: 'boolean, actors, percentage_of_actors, percentage_of_time or groups' })
  key!: string;

  @Field(() => GraphQLJSON, {
    description: 'Boolean for boolean, integer for percentages, list of strings for actors (User:<id>) and groups.',
  })
  value!: GateValue;
}

@ObjectType('Feature', {
  description: 'A persisted feature flag; state and gates are computed from its gate values.',
  implements: Node,
})
export class FeatureType {
  @Field(() => ID, {
    description:
      'Global id by name (`gid://gitlab/Feature/<name>`): unique, so that normalized client caches (Apollo, Relay) update a flag after setFeatureGate.',
  })
  id!: string;
  @Field(() => String) name!: string;
}

export const FeatureConnection = PageType(FeatureType, 'FeatureConnection');

@ObjectType('FeatureFlagChange', {
  description: 'A feature flag that was set or deleted, as it is once the change committed.',
})
export class FeatureFlagChangeType {
  @Field(() => String, { description: 'The flag name.' }) name!: string;
  @Field(() => FeatureType, {
    nullable: true,
    description: 'The flag as `features` lists it; null when it was deleted (it answers its default again).',
  })
  feature!: FeatureType | null;

  @Field(() => Boolean, { description: 'The flag no longer exists.' }) deleted!: boolean;
}
