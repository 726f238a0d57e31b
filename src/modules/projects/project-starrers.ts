import { Args, ArgsType, Ctx, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { likeEscape } from '../../core/db/sql';
import { pgTime } from '../../core/db/pg-time';
import { offsetPage } from '../../core/pagination/list-query';
import { PageArgs, PageType, type Page } from '../../core/pagination/page';
import { obj, shape, time } from '../../core/wire/wire';
import { joinUser, userFromRow, UserBasicWire, UserType, type User } from '../users';
import { projectService } from './project.service';

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

@ArgsType()
export class ProjectStarrersArgs extends PageArgs {
  @Field(() => ID, { description: 'Project id or full path.' }) projectId!: string;
  @Field(() => String, { nullable: true, description: 'Substring of the username or name.' }) search?: string;
}

/** Later GitLab's Entities::UserStarsProject. */
export const ProjectStarrerWire = shape('UserStarsProject', {
  starred_since: time('starredSince'),
  user: obj('user', UserBasicWire),
});

@Resolver(() => ProjectStarrerType)
export class ProjectStarrersResolver {
  @Query(() => ProjectStarrerPage, { description: 'Who starred a project, the latest first.' })
  @Allow('anonymous')
  async projectStarrers(@Args() args: ProjectStarrersArgs, @Ctx() ctx: RequestCtx): Promise<Page<ProjectStarrerType>> {
    const project = await projectService.findVisible(ctx, args.projectId);
    const where = ['s.project_id = ?'];
    const params: unknown[] = [project.id];
    if (args.search) {
      where.push('(u.username ilike ? or u.name ilike ?)');
      const term = `%${likeEscape(args.search)}%`;
      params.push(term, term);
    }
    return offsetPage(
      ctx.em,
      {
        select: 'u.*, s.id as star_id, s.created_at as starred_since',
        from: `users_star_projects s ${joinUser('s.user_id')}`,
        where,
        params,
        orderBy: 's.created_at',
        dir: 'desc',
        id: 's.id',
        map: (r) => ({ starredSince: pgTime(r.starred_since as string | Date), user: userFromRow(ctx.em, r) }),
      },
      args,
    );
  }
}
