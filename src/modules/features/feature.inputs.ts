import { Field, InputType } from 'type-graphql';

/** POST /features/:name (spec 4.36) and the later `key` parameter. */
@InputType('SetFeatureGateInput')
export class SetFeatureGateInput {
  @Field(() => String, {
    description:
      '"true" enables, "false" or "0" disables, anything else is read as an integer percentage (0–100) as GitLab does.',
  })
  value!: string;

  @Field(() => String, {
    nullable: true,
    description: 'percentage_of_actors or percentage_of_time (default) for an integer value.',
  })
  key?: string;

  @Field(() => String, {
    nullable: true,
    description: 'A registered feature group (perf_team or one from FEATURE_GROUPS).',
  })
  featureGroup?: string;

  @Field(() => String, { nullable: true, description: 'A username.' })
  user?: string;
}
