import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import type { Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { AccessLevel, policy } from '../access';
import { GroupType } from '../groups';
import type { Namespace } from '../namespaces';
import { ProjectType, type Project } from '../projects';
import { auditEventService as service } from './audit-event.service';
import { AuditEventPage, EntityAuditEventsArgs, type AuditEventType } from './audit-event.type';

export function entityAuditEventLoaders(ctx: RequestCtx) {
  return {
    /** `Group.auditEvents` across the groups of a list: one round trip per argument set. */
    groupAuditEventLists: perParentPages<EntityAuditEventsArgs, AuditEventType>((args, ids) =>
      service.listForEntities(ctx, 'Group', ids, args),
    ),
    /** `Project.auditEvents` across the projects of a list. */
    projectAuditEventLists: perParentPages<EntityAuditEventsArgs, AuditEventType>((args, ids) =>
      service.listForEntities(ctx, 'Project', ids, args),
    ),
  };
}

type EntityAuditEventLoaders = ReturnType<typeof entityAuditEventLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends EntityAuditEventLoaders {}
}

/** The caller's level in the group or project, unless an administrator (who reads every event). */
const levelOf = async (ctx: RequestCtx, load: () => Promise<number>): Promise<number> =>
  ctx.user && !policy.isAdmin(ctx.user) ? load() : 0;

/**
 * A group's and a project's audit events as their fields (ours: GitLab's GraphQL has none), under the rule
 * of REST's GET /groups/:id/audit_events (Owners) and GET /projects/:id/audit_events (Maintainers):
 * null for anyone else.
 */
@Resolver(() => GroupType)
export class GroupAuditEventsResolver {
  @FieldResolver(() => AuditEventPage, {
    nullable: true,
    description: "The group's own audit events, newest first: for its Owners and administrators; null for others.",
  })
  async auditEvents(
    @Root() g: Namespace,
    @Args() args: EntityAuditEventsArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<AuditEventType> | null> {
    const level = await levelOf(ctx, () => ctx.loaders.groupLevel.load(g.id));
    if (!policy.atLeast(ctx.user, level, AccessLevel.OWNER)) return null;
    return ctx.loaders.groupAuditEventLists.load({ parentId: g.id, args });
  }
}

@Resolver(() => ProjectType)
export class ProjectAuditEventsResolver {
  @FieldResolver(() => AuditEventPage, {
    nullable: true,
    description:
      "The project's own audit events, newest first: for its Maintainers and administrators; null for others.",
  })
  @Reads('id')
  async auditEvents(
    @Root() p: Project,
    @Args() args: EntityAuditEventsArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<AuditEventType> | null> {
    const level = await levelOf(ctx, () => ctx.loaders.projectLevel.load(p.id));
    if (!policy.atLeast(ctx.user, level, AccessLevel.MASTER)) return null;
    return ctx.loaders.projectAuditEventLists.load({ parentId: p.id, args });
  }
}
