import { AuditEventIdArg } from './audit-event.type';
import { Arg, Args, Ctx, ID, Query, Resolver, Root, Subscription } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { auditEventService as service } from './audit-event.service';
import {
  AuditEventPage,
  AuditEventStreamArgs,
  AuditEventType,
  AuditEventsArgs,
  GroupAuditEventsArgs,
  ProjectAuditEventsArgs,
} from './audit-event.type';

/**
 * GitLab's audit events API (EE): administrators read every event. A group's and a project's lists and
 * single events are REST's root fields (internal view only): GraphQL clients read `Group.auditEvents` /
 * `Project.auditEvents`, and one event by `node(id)` (group Owners, project Maintainers, administrators).
 */
@Resolver(() => AuditEventType)
export class AuditEventResolver {
  @Query(() => AuditEventPage, { description: 'Administrators only; newest first.' })
  @Allow('admin')
  auditEvents(@Args() args: AuditEventsArgs, @Ctx() ctx: RequestCtx): Promise<Page<AuditEventType>> {
    return service.list(ctx, args);
  }

  @Internal()
  @Query(() => AuditEventPage, {
    description: 'The events of one group (created, changed; its members later), for its Owners; newest first.',
  })
  @Allow('user')
  groupAuditEvents(@Args() args: GroupAuditEventsArgs, @Ctx() ctx: RequestCtx): Promise<Page<AuditEventType>> {
    const { groupId, ...rest } = args;
    return service.ofGroup(ctx, groupId, rest);
  }

  @Internal()
  @Query(() => AuditEventPage, { description: 'The events of one project, for its Masters; newest first.' })
  @Allow('user')
  projectAuditEvents(@Args() args: ProjectAuditEventsArgs, @Ctx() ctx: RequestCtx): Promise<Page<AuditEventType>> {
    const { projectId, ...rest } = args;
    return service.ofProject(ctx, projectId, rest);
  }

  @Subscription(() => AuditEventType, {
    description:
      'Live: each audit event as its change commits, on any instance (WebSocket, graphql-transport-ws). ' +
      'Administrators receive every event; other users the events of groups they own and projects they are Master of.',
    subscribe: ({ args, context }) => service.live(context as RequestCtx, args as AuditEventStreamArgs),
  })
  @Allow('user')
  auditEventAdded(@Root() event: AuditEventType, @Args() _args: AuditEventStreamArgs): AuditEventType {
    return event;
  }

  /** REST's GET /groups/:id/audit_events/:audit_event_id: internal view only; GraphQL clients ask `node(id)`. */
  @Internal()
  @Query(() => AuditEventType, { description: 'One event of a group, for its Owners.' })
  @Allow('user')
  groupAuditEvent(
    @Arg('groupId', () => ID) groupId: string,
    @Arg('id', () => AuditEventIdArg) id: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<AuditEventType> {
    return service.oneOfGroup(ctx, groupId, id);
  }

  /** REST's GET /projects/:id/audit_events/:audit_event_id: internal view only; GraphQL clients ask `node(id)`. */
  @Internal()
  @Query(() => AuditEventType, { description: 'One event of a project, for its Masters.' })
  @Allow('user')
  projectAuditEvent(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => AuditEventIdArg) id: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<AuditEventType> {
    return service.oneOfProject(ctx, projectId, id);
  }

  @Query(() => AuditEventType, { description: 'Administrators only.' })
  @Allow('admin')
  auditEvent(@Arg('id', () => AuditEventIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<AuditEventType> {
    return service.get(ctx, id);
  }
}
