import { Args, ArgsType, Ctx, Field, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { likeEscape, sqlRows } from '../../core/db/sql';
import { Reads } from '../../core/graphql/reads';
import { perParent } from '../../core/pagination/per-parent-pages';
import { intArray } from '../access';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import { Environment } from './environment.entity';
import { environmentPolicy } from './environment.policy';
import { EnvironmentType } from './environment.type';

/** GitLab's `Project.environment` arguments (Resolvers::EnvironmentsResolver, Environments::EnvironmentsFinder). */
@ArgsType()
export class ProjectEnvironmentArgs {
  @Field(() => String, { nullable: true, description: 'Name of the environment.' })
  name?: string;

  @Field(() => String, { nullable: true, description: 'Search query for environment name (a name prefix).' })
  search?: string;

  @Field(() => [String], { nullable: true, description: 'States of environments: available or stopped.' })
  states?: string[];

  @Field(() => String, {
    nullable: true,
    description: 'Search query for environment type (the folder: the part of the name before its first `/`).',
  })
  type?: string;
}

/**
 * The first environment (by id, as GitLab's `.first`) matching the finder's filters in each project of
 * `projectIds`: one statement for every project of a list, through environments' (project_id, name) and
 * (project_id, id) indexes.
 */
async function firstEnvironments(
  ctx: RequestCtx,
  args: ProjectEnvironmentArgs,
  projectIds: number[],
): Promise<Map<number, Environment | null>> {
  const where = [`e.project_id = any(${intArray(projectIds)})`];
  const params: unknown[] = [];
  const filter = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  if (args.name != null) filter('e.name = ?', args.name);
  if (args.search) filter('e.name ilike ?', `${likeEscape(args.search)}%`);
  if (args.type != null) filter('e.name like ?', `${likeEscape(args.type)}/%`);
  if (args.states) {
    where.push(args.states.length ? `e.state in (${args.states.map(() => '?').join(', ')})` : 'false');
    params.push(...args.states);
  }
  const rows = await sqlRows(
    ctx.em,
    `select distinct on (e.project_id) e.* from environments e where ${where.join(' and ')} order by e.project_id, e.id`,
    params,
  );
  const out = new Map<number, Environment | null>(projectIds.map((id) => [id, null]));
  for (const row of rows) out.set(Number(row.project_id), ctx.em.map(Environment, row as never));
  return out;
}

export const projectEnvironmentLoaders = (ctx: RequestCtx) => ({
  projectEnvironment: perParent<ProjectEnvironmentArgs, Environment | null>((args, ids) =>
    firstEnvironments(ctx, args, ids),
  ),
});
type ProjectEnvironmentLoaders = ReturnType<typeof projectEnvironmentLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ProjectEnvironmentLoaders {}
}

@Resolver(() => ProjectType)
export class ProjectEnvironmentResolver {
  @FieldResolver(() => EnvironmentType, {
    nullable: true,
    description:
      'A single environment of the project (the first by id that matches); null when none matches or the caller may not read environments (Reporter or above, with jobs enabled).',
  })
  @Reads('id', 'jobsEnabled')
  async environment(
    @Root() p: Project,
    @Args() args: ProjectEnvironmentArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Environment | null> {
    const level = ctx.user ? await ctx.loaders.projectLevel.load(p.id) : 0;
    if (!environmentPolicy.canEnvironment(ctx.user, level, p.jobsEnabled, 'read')) return null;
    return ctx.loaders.projectEnvironment.load({ parentId: p.id, args: { ...args } });
  }
}
