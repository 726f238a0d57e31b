import { RunnerIdArg } from './runner.type';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';
import { GraphQLOnly } from '../../core/graphql/graphql-only';
import { Internal } from '../../core/graphql/internal';
import {
  CiRunnerSort,
  CiRunnerType,
  OwnRunnerScope,
  RunnerAccessLevel,
  RunnerScope,
  RunnerStatus,
} from './runner.type';

/** What a runner fleet dashboard filters by (later GitLab's `status`, `tag_list`; `search` on the description). */
@ArgsType()
export class RunnerFilterArgs extends PageArgs {
  @Field(() => RunnerStatus, { nullable: true })
  status?: RunnerStatus;

  @Field(() => [String], { nullable: true, description: 'Runners carrying all these tags.' })
  tagList?: string[];

  @Field(() => String, {
    nullable: true,
    description: "Substring of the description (case-insensitive), or the runner's whole token.",
  })
  search?: string;

  // GraphQL only (GitLab's GraphQL names): GET /runners and GET /runners/all keep their parameters.
  @Field(() => CiRunnerType, { nullable: true, description: "Only runners of this type (GitLab's `type`)." })
  @GraphQLOnly()
  type?: CiRunnerType;

  @Field(() => CiRunnerSort, { nullable: true, description: 'Order of the list; by id (ascending) when omitted.' })
  @GraphQLOnly()
  sort?: CiRunnerSort;

  @Field(() => Boolean, { nullable: true, description: 'Only paused runners (true) or only active ones (false).' })
  @GraphQLOnly()
  paused?: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      "Runners whose manager runs a version starting with this term's leading digits and dots ('14.' matches 14.11.1 and 14.2.3); a runner has its manager once it made contact.",
  })
  @GraphQLOnly()
  versionPrefix?: string;

  @Field(() => String, {
    nullable: true,
    description: 'Runners created (runnerCreate) by the user with this username; none for an unknown username.',
  })
  @GraphQLOnly()
  creatorUsername?: string;
}

/** GET /runners (spec 4.1): the enum admits exactly the scopes the field accepts: another fails validation, not the run. */
@ArgsType()
export class RunnersArgs extends RunnerFilterArgs {
  @Field(() => OwnRunnerScope, { nullable: true })
  scope?: OwnRunnerScope;
}

/** GET /runners/all (spec 4.2). */
@ArgsType()
export class AllRunnersArgs extends RunnerFilterArgs {
  /** REST's filter (GitLab 10.3); GitLab's GraphQL API filters by `type` and `status`. */
  @Internal()
  @Field(() => RunnerScope, { nullable: true })
  scope?: RunnerScope;
}

/** GET /projects/:id/runners (spec 4.7); the scope is checked after the project's Master filter, as GitLab does. */
@ArgsType()
export class ProjectRunnersArgs extends PageArgs {
  @Field(() => ID)
  projectId!: string;

  @Field(() => String, { nullable: true, description: 'active, paused, online, specific or shared.' })
  scope?: string;
}

/** The writable attributes of a runner (spec 4.4); also the allow-list of the patch. */
@InputType()
export class UpdateRunnerInput {
  @Field(() => String, { nullable: true }) description?: string;
  /** REST's name (GitLab 10.3); GitLab's GraphQL API has only `paused`. */
  @Internal()
  @Field(() => Boolean, { nullable: true })
  active?: boolean;
  /** GitLab's GraphQL name: the opposite of `active`; not with a contradicting `active`. */
  @GraphQLOnly()
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the runner takes no new jobs (true) or is active (false).',
  })
  paused?: boolean;
  @Field(() => [String], { nullable: true, description: 'The complete tag list (replaces it); comma lists are split.' })
  tagList?: string[];
  @Field(() => Boolean, { nullable: true }) runUntagged?: boolean;
  @Field(() => Boolean, { nullable: true }) locked?: boolean;
  @Field(() => RunnerAccessLevel, { nullable: true }) accessLevel?: RunnerAccessLevel;
  /** GitLab 10.3's REST has no maximum timeout (spec 4.4): GraphQL only, as GitLab's `RunnerUpdateInput`. */
  @GraphQLOnly()
  @Field(() => Int, {
    nullable: true,
    description: 'Maximum timeout (in seconds) for jobs processed by the runner; at least 600.',
  })
  maximumTimeout?: number;
}

/** One entry of the runner's `info` hash (name, version, revision, platform, architecture; others ignored). */
@InputType()
export class RunnerInfoEntryInput {
  @Field(() => String) key!: string;
  @Field(() => String) value!: string;
}

/** POST /runners: a registration token plus the runner's initial attributes. */
@InputType()
export class RegisterRunnerInput extends UpdateRunnerInput {
  @Field(() => String, { description: 'The instance registration token or a project runners_token.' }) token!: string;
  @Field(() => [RunnerInfoEntryInput], {
    nullable: true,
    description: "The runner's metadata, as REST's info[name]=… hash.",
  })
  info?: RunnerInfoEntryInput[];
}

@ArgsType()
export class EnableProjectRunnerArgs {
  @Field(() => ID, { description: 'Full path (or id) of the project to which the runner will be assigned.' })
  projectPath!: string;
  @Field(() => RunnerIdArg, {
    nullable: true,
    description: 'Required; checked after the project filter (GitLab order).',
  })
  runnerId?: number;
}
