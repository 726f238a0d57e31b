import { Args, ArgsType, Ctx, Field, FieldResolver, ID, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { Reads } from '../../core/graphql/reads';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import type { RequestCtx } from '../../core/context/request-ctx';
import { likeEscape } from '../../core/db/sql';
import { pgTime } from '../../core/db/pg-time';
import { offsetPage, offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import { PageArgs, PageType, type Page } from '../../core/pagination/page';
import { obj, shape, time } from '../../core/wire/wire';
import { joinUser, userFromRow, UserBasicWire, UserType, type User } from '../users';
import type { Project } from './project.entity';
import { projectService } from './project.service';
import { ProjectType } from './project.type';

/**
 * GET /projects/:id/starrers (later GitLab): who starred a project the caller may see, and since when,
 * the latest star first; `search` matches the username or name (docs/rest.md#projects-and-forks).
 */
@ObjectType('ProjectStarrer')
export class ProjectStarrerType {
  @Field(() => Date) starredSince!: Date;
  @Field(() => UserType) user!: User;
}
export const ProjectStarrerPage = PageType(ProjectStarrerType, 'ProjectStarrerConnection');

/** `Project.starrers`: who starred the project, by username or name. */
@ArgsType()
export class StarrersArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Substring of the username or name.' }) search?: string;
}

@ArgsType()
export class ProjectStarrersArgs extends StarrersArgs {
  @Field(() => ID, { description: 'Project id or full path.' }) projectId!: string;
}

/** Later GitLab's Entities::UserStarsProject. */
export const ProjectStarrerWire = shape('UserStarsProject', {
  starred_since: time('starredSince'),
  user: obj('user', UserBasicWire),
});

/** Stars with their users, the latest first; the caller adds which project(s) by `s.project_id`. */
function starrerQuery(ctx: RequestCtx, args: StarrersArgs): ListQuery<ProjectStarrerType> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (args.search) {
    where.push('(u.username ilike ? or u.name ilike ?)');
    const term = `%${likeEscape(args.search)}%`;
    params.push(term, term);
  }
  return {
    select: 'u.*, s.id as star_id, s.created_at as starred_since',
    from: `users_star_projects s ${joinUser('s.user_id')}`,
    where,
    params,
    orderBy: 's.created_at',
    dir: 'desc',
    id: 's.id',
    map: (r) => ({ starredSince: pgTime(r.starred_since as string | Date), user: userFromRow(ctx.em, r) }),
  };
}

export function projectStarrerLoaders(ctx: RequestCtx) {
  return {
    /** `Project.starrers` across the projects of a list: one round trip per argument set. */
    projectStarrerLists: perParentPages<StarrersArgs, ProjectStarrerType>((args, ids) =>
      offsetPagesByKey(ctx.em, starrerQuery(ctx, args), 's.project_id', ids, args),
    ),
  };
}

type ProjectStarrerLoaders = ReturnType<typeof projectStarrerLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ProjectStarrerLoaders {}
}

/**
 * REST's root list is internal: GraphQL clients read `Project.starrers` (ours), which the project's
 * visibility already guards.
 */
@Resolver(() => ProjectStarrerType)
export class ProjectStarrersResolver {
  @Internal()
  @Query(() => ProjectStarrerPage, { description: 'Who starred a project, the latest first.' })
  @Allow('anonymous')
  async projectStarrers(@Args() args: ProjectStarrersArgs, @Ctx() ctx: RequestCtx): Promise<Page<ProjectStarrerType>> {
    const project = await projectService.findVisible(ctx, args.projectId);
    const q = starrerQuery(ctx, args);
    return offsetPage(
      ctx.em,
      { ...q, where: ['s.project_id = ?', ...q.where], params: [project.id, ...q.params] },
      args,
    );
  }
}

@Resolver(() => ProjectType)
export class ProjectStarrersFieldResolver {
  @FieldResolver(() => ProjectStarrerPage, {
    description: 'Who starred the project, and since when, the latest first.',
  })
  @Reads('id')
  starrers(@Root() p: Project, @Args() args: StarrersArgs, @Ctx() ctx: RequestCtx): Promise<Page<ProjectStarrerType>> {
    return ctx.loaders.projectStarrerLists.load({ parentId: p.id, args });
  }
}
