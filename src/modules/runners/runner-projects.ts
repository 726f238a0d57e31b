import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Info, Int, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Internal } from '../../core/graphql/internal';
import { MaxItems, limitDescription, servedLimit } from '../../core/graphql/list-bound';
import { PageArgs, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import {
  memberProjects,
  projectPageColumns,
  projectPagesByKey,
  projectSearch,
  projectVisibility,
  ProjectPage,
  ProjectType,
  type Project,
} from '../projects';
import { RUNNER_PROJECTS_MAX } from './runner.loaders';
import type { Runner } from './runner.entity';
import { RunnerType } from './runner.type';

/**
 * GitLab's project sorts (`Project.sort_by_attribute`: `<field>_<direction>`) a runner's projects take;
 * GitLab's default is `id_desc`, and so is a sort it does not know.
 */
const PROJECT_SORTS: Record<string, { orderBy: string; dir: 'asc' | 'desc' }> = {
  id_asc: { orderBy: 'p.id', dir: 'asc' },
  id_desc: { orderBy: 'p.id', dir: 'desc' },
  name_asc: { orderBy: 'p.name', dir: 'asc' },
  name_desc: { orderBy: 'p.name', dir: 'desc' },
  path_asc: { orderBy: 'p.path', dir: 'asc' },
  path_desc: { orderBy: 'p.path', dir: 'desc' },
  created_asc: { orderBy: 'p.created_at', dir: 'asc' },
  created_desc: { orderBy: 'p.created_at', dir: 'desc' },
  updated_asc: { orderBy: 'p.updated_at', dir: 'asc' },
  updated_desc: { orderBy: 'p.updated_at', dir: 'desc' },
  latest_activity_asc: { orderBy: 'p.last_activity_at', dir: 'asc' },
  latest_activity_desc: { orderBy: 'p.last_activity_at', dir: 'desc' },
  stars_asc: { orderBy: 'p.star_count', dir: 'asc' },
  stars_desc: { orderBy: 'p.star_count', dir: 'desc' },
};
const DEFAULT_SORT = 'id_desc';

/** GitLab's `CiRunner.projects` arguments (its ProjectSearchArguments the runner page uses). */
@ArgsType()
export class RunnerProjectsArgs extends PageArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Search query, which can be for the project name, a path, or a description.',
  })
  search?: string | null;

  @Field(() => String, {
    nullable: true,
    defaultValue: DEFAULT_SORT,
    description: `Sort order of results: \`<field>_<direction>\` with field ${[...new Set(Object.keys(PROJECT_SORTS).map((k) => k.replace(/_(asc|desc)$/, '')))].join(', ')} (\`id_desc\` for any other).`,
  })
  sort?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Return only projects that the current user is a member of.' })
  membership?: boolean | null;
}

/** The arguments and the columns the selection reads: a batch per distinct pair. */
type RunnerProjectPagesArgs = RunnerProjectsArgs & { columns: string };

/**
 * `CiRunner.projects` for the runners of a page with the same arguments: one bounded count and one
 * page statement (ci_runner_projects_runner_project_uniq ties the projects to each runner).
 */
async function runnerProjectPages(
  ctx: RequestCtx,
  args: RunnerProjectPagesArgs,
  runnerIds: number[],
): Promise<Map<number, Page<Project>>> {
  const where = [await projectVisibility(ctx, 'p')];
  const params: unknown[] = [];
  if (args.membership) where.push(await memberProjects(ctx, 'p'));
  if (args.search) {
    const search = projectSearch('p', args.search);
    where.push(search.sql);
    params.push(...search.params);
  }
  const { orderBy, dir } = PROJECT_SORTS[args.sort ?? DEFAULT_SORT] ?? PROJECT_SORTS[DEFAULT_SORT];
  return projectPagesByKey(
    ctx.em,
    { columns: args.columns, where, params, orderBy, dir },
    { match: 'p.id in (select rp.project_id from ci_runner_projects rp where rp.runner_id = page_keys.k)' },
    runnerIds,
    args,
  );
}

export function runnerProjectLoaders(ctx: RequestCtx) {
  return {
    runnerProjectPages: perParentPages<RunnerProjectPagesArgs, Project>((args, ids) =>
      runnerProjectPages(ctx, args, ids),
    ),
  };
}

type RunnerProjectLoaders = ReturnType<typeof runnerProjectLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends RunnerProjectLoaders {}
}

@Resolver(() => RunnerType)
export class RunnerProjectsResolver {
  /** GitLab's `CiRunner.projects`: a connection, null for instance runners. */
  @FieldResolver(() => ProjectPage, {
    nullable: true,
    description:
      'Projects the runner is enabled in that the caller may see, newest first by default; null for a shared (instance) runner, as GitLab answers for runners of other types than project.',
  })
  projects(
    @Root() r: Runner,
    @Args() args: RunnerProjectsArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<Project>> | null {
    if (r.isShared) return null;
    const columns = projectPageColumns(ctx.em, info, 'p');
    return ctx.loaders.runnerProjectPages.load({ parentId: r.id, args: { ...args, columns } });
  }

  /** GitLab 10.3's runner detail (`GET /runners/:id` lists the runner's projects); GraphQL clients page `projects`. */
  @Internal()
  @FieldResolver(() => [ProjectType], {
    description: `Administrators: every project; others: the projects they are a member of. The first ${RUNNER_PROJECTS_MAX} by id.`,
  })
  @MaxItems(RUNNER_PROJECTS_MAX)
  detailProjects(
    @Root() r: Runner,
    @Ctx() ctx: RequestCtx,
    @Arg('limit', () => Int, { nullable: true, description: limitDescription(RUNNER_PROJECTS_MAX) })
    limit: number | undefined,
  ): Promise<Project[]> {
    const served = servedLimit(limit, RUNNER_PROJECTS_MAX);
    const all = ctx.loaders.runnerProjects.load(r.id);
    return served === RUNNER_PROJECTS_MAX ? all : all.then((list) => list.slice(0, served));
  }
}
