import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import type { User } from '../users';
import { UserType } from '../users';
import type { Project } from './project.entity';
import { ProjectType } from './project.type';
import type { Loaded } from '../../core/context/peek-loader';

/**
 * Where a dashboard goes from a project (object links, as GitLab's `Project.group`,
 * `Project.creator`; `Project.group` is the groups module's), each batched per request and checked like its own lookup.
 */
@Resolver(() => ProjectType)
export class ProjectLinksResolver {
  @FieldResolver(() => UserType, {
    nullable: true,
    description: 'The user who created the project (null when unknown or deleted).',
  })
  @Reads('creatorId')
  creator(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<User | null> {
    if (p.creatorId === null || p.creatorId === undefined) return null;
    return ctx.loaders.user.get(p.creatorId);
  }
}
