import { idArgOf } from '../../core/graphql/global-id';
import { Node } from '../../core/graphql/node';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageType } from '../../core/pagination/page';

/** GitLab's audit event details: a change (`change`, `from`, `to`), an `add`, a `remove` or a custom message, plus who/where. */
@ObjectType('AuditEventDetails')
export class AuditEventDetailsType {
  @Field(() => String, { nullable: true, description: 'The changed attribute.' }) change?: string | null;
  @Field(() => String, { nullable: true }) from?: string | null;
  @Field(() => String, { nullable: true }) to?: string | null;
  @Field(() => String, { nullable: true, description: 'What was added (e.g. broadcast_message, feature_flag).' }) add?:
    string | null;
  @Field(() => String, { nullable: true, description: 'With add: the role given (e.g. Developer for user_access).' })
  as?: string | null;
  @Field(() => String, { nullable: true, description: 'What was removed.' }) remove?: string | null;
  @Field(() => String, { nullable: true }) customMessage?: string | null;
  @Field(() => String) authorName!: string;
  @Field(() => String, { description: 'The id (or name) of the changed object.' }) targetId!: string;
  @Field(() => String) targetType!: string;
  @Field(() => String) targetDetails!: string;
  @Field(() => String, { nullable: true }) ipAddress?: string | null;
  @Field(() => String) entityPath!: string;
  @Field(() => String, { nullable: true, description: 'Under Sudo: the administrator who acted as the author.' })
  impersonatedBy?: string | null;
}

@ObjectType('AuditEvent', {
  description:
    "Who changed what, when and from where: administrators read every event, a group's Owners the group's, a project's Maintainers the project's.",
  implements: Node,
})
export class AuditEventType {
  @Field(() => ID, { description: 'Global id: `gid://gitlab/AuditEvent/<id>`.' }) id!: string;
  @Field(() => ID, { description: 'The database id (a 64-bit integer, as a string; the id REST shows).' })
  databaseId?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'The user who made the change (null once deleted or for anonymous runner-facing calls).',
  })
  authorId!: number | null;
  @Field(() => Int) entityId!: number;
  @Field(() => String, {
    description: 'User, Group, Project, or Gitlab::Audit::InstanceScope for instance-wide changes.',
  })
  entityType!: string;
  @Field(() => AuditEventDetailsType) details!: AuditEventDetailsType;
  @Field(() => Date) createdAt!: Date;
}

export const AuditEventPage = PageType(AuditEventType, 'AuditEventConnection');

/** `Group.auditEvents` / `Project.auditEvents`: the entity's events in a time window. */
@ArgsType()
export class EntityAuditEventsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'ISO 8601 time: events at or after it.' }) createdAfter?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time: events at or before it.' })
  createdBefore?: string;
}

@ArgsType()
export class GroupAuditEventsArgs extends PageArgs {
  @Field(() => ID, { description: 'The group id or full path.' }) groupId!: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time: events at or after it.' }) createdAfter?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time: events at or before it.' })
  createdBefore?: string;
}

@ArgsType()
export class ProjectAuditEventsArgs extends PageArgs {
  @Field(() => ID, { description: 'The project id or full path.' }) projectId!: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time: events at or after it.' }) createdAfter?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time: events at or before it.' })
  createdBefore?: string;
}

@ArgsType()
export class AuditEventStreamArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Only events of this entity type: User, Group, Project or Gitlab::Audit::InstanceScope.',
  })
  entityType?: string;
  @Field(() => Int, { nullable: true, description: 'Only events of this entity id (with entityType).' })
  entityId?: number;
}

@ArgsType()
export class AuditEventsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'ISO 8601 time: events at or after it.' }) createdAfter?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time: events at or before it.' })
  createdBefore?: string;
  @Field(() => String, { nullable: true, description: 'User, Group, Project or Gitlab::Audit::InstanceScope.' })
  entityType?: string;
  @Field(() => Int, { nullable: true }) entityId?: number;
}

/** Argument type of a AuditEvent id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const AuditEventIdArg = idArgOf('AuditEvent', 'bigint');
