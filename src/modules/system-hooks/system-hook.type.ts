import { idArgOf } from '../../core/graphql/global-id';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageType } from '../../core/pagination/page';
import { TextCost } from '../../core/graphql/text-cost';

@ObjectType('SystemHook', {
  description:
    'An address that receives instance events (GitLab 10.3 system hooks); administrators only. The token is never shown.',
  implements: Node,
})
export class SystemHookType extends DatabaseNode {
  @Field(() => String) @TextCost(2048) url!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Boolean, {
    description: 'Stored for compatibility: this service has no repositories, so no push events.',
  })
  pushEvents!: boolean;
  @Field(() => Boolean, { description: 'Stored for compatibility (no repositories).' }) tagPushEvents!: boolean;
  @Field(() => Boolean, { description: 'Stored for compatibility (no repositories).' })
  repositoryUpdateEvents!: boolean;
  @Field(() => Boolean) enableSslVerification!: boolean;
  @Field(() => String, {
    description: 'executable, or temporarily_disabled after 4 failed deliveries in a row (retried at disabledUntil).',
  })
  alertStatus!: string;
  @Field(() => Date, { nullable: true, description: 'While deliveries fail: when the next attempt is due.' })
  disabledUntil!: Date | null;
  @Field(() => Int, { description: 'Failed deliveries in a row (0 once one succeeds).' }) failures!: number;
  @Field(() => Int, { description: 'Events waiting for this hook.' }) pending!: number;
}

export const SystemHookPage = PageType(SystemHookType, 'SystemHookConnection');

@ObjectType('SystemHookLog', {
  description: "One delivery attempt to a system hook (the last 50 are kept per hook); GitLab's WebHookLog.",
  implements: Node,
})
export class SystemHookLogType extends DatabaseNode {
  @Field(() => String, { description: 'system_hooks, or the event name of the delivered event.' }) trigger!: string;
  @Field(() => String, { nullable: true, description: 'The event delivered (null for a test).' }) eventName!:
    string | null;
  @Field(() => String) @TextCost(2048) url!: string;
  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status; null when no response arrived." })
  responseStatus!: number | null;
  @Field(() => String, { description: 'The start of the response body (at most 2 KB).' })
  @TextCost(2048)
  responseBody!: string;
  @Field(() => Int, { description: 'Milliseconds.' }) executionDuration!: number;
  @Field(() => String, {
    nullable: true,
    description: 'Why no response arrived (refused, timed out, blocked address).',
  })
  internalErrorMessage!: string | null;
  @Field(() => Date) createdAt!: Date;
}

export const SystemHookLogPage = PageType(SystemHookLogType, 'SystemHookLogConnection');

@ObjectType('SystemHookTestData', {
  description:
    "What testSystemHook sends to the hook as a test (GitLab 10.3's fixed project_create payload) and answers.",
})
export class SystemHookTestDataType {
  @Field(() => String) eventName!: string;
  @Field(() => String) name!: string;
  @Field(() => String) path!: string;
  @Field(() => Int) projectId!: number;
  @Field(() => String) ownerName!: string;
  @Field(() => String) ownerEmail!: string;
}

@InputType('CreateSystemHookInput')
export class CreateSystemHookInput {
  @Field(() => String, {
    description: 'http or https URL; local addresses only with allow_local_requests_from_system_hooks.',
  })
  url!: string;
  @Field(() => String, { nullable: true, description: 'Sent as X-Gitlab-Token with every delivery; never shown.' })
  token?: string | null;
  @Field(() => Boolean, { nullable: true }) pushEvents?: boolean | null;
  @Field(() => Boolean, { nullable: true }) tagPushEvents?: boolean | null;
  @Field(() => Boolean, { nullable: true }) repositoryUpdateEvents?: boolean | null;
  @Field(() => Boolean, { nullable: true }) enableSslVerification?: boolean | null;
}

@ArgsType()
export class SystemHookLogsArgs extends PageArgs {
  @Field(() => SystemHookIdArg) id!: number;
}

/** Argument type of a SystemHook id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const SystemHookIdArg = idArgOf('SystemHook');
