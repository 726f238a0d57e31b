import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import { GroupType } from '../groups/group.type';
import type { Namespace } from '../namespaces';
import type { User } from '../users';
import { UserType } from '../users/user.type';
import type { Project } from './project.entity';
import { ProjectType } from './project.type';

/**
 * Where a dashboard goes from a project (object links, as GitLab's `Project.group`,
 * `Project.creator`... ), each batched per request and checked like its own lookup.
 */
@Resolver(() => ProjectType)
export class ProjectLinksResolver {
  @FieldResolver(() => GroupType, {
    nullable: true,
    description: 'The group the project belongs to, when the caller may see it; null for a personal project.',
  })
  @Reads('namespaceId')
  group(@Root() p: Project, @Ctx() ctx: RequestCtx): Namespace | null | Promise<Namespace | null> {
    return ctx.loaders.visibleGroup.peek(p.namespaceId) ?? ctx.loaders.visibleGroup.load(p.namespaceId);
  }

  @FieldResolver(() => UserType, {
    nullable: true,
    description: 'The user who created the project (null when unknown or deleted).',
  })
  @Reads('creatorId')
  creator(@Root() p: Project, @Ctx() ctx: RequestCtx): User | null | Promise<User | null> {
    if (p.creatorId === null || p.creatorId === undefined) return null;
    return ctx.loaders.user.peek(p.creatorId) ?? ctx.loaders.user.load(p.creatorId);
  }
}
