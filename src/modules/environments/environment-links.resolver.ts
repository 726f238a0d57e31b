import DataLoader from 'dataloader';
import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import { offsetPagesByKey } from '../../core/pagination/list-query';
import { PageArgs, type Page } from '../../core/pagination/page';
import { policy } from '../access/policy';
import type { Project } from '../projects/project.entity';
import { ProjectType } from '../projects/project.type';
import { Environment } from './environment.entity';
import { EnvironmentPage } from './environment.type';

interface EnvironmentsKey {
  projectId: number;
  args: PageArgs;
}
/** Every page argument, connection ones included (first/after/last/before), keys the batch. */
const argsKey = (a: PageArgs) => JSON.stringify([a.page, a.perPage, a.first, a.after, a.last, a.before]);

/** `Project.environments` across the projects of a list: one bounded count and one page query per argument set. */
async function loadEnvironments(ctx: RequestCtx, keys: readonly EnvironmentsKey[]): Promise<Page<Environment>[]> {
  const batches = new Map<string, EnvironmentsKey[]>();
  for (const k of keys) batches.set(argsKey(k.args), [...(batches.get(argsKey(k.args)) ?? []), k]);
  const out = new Map<EnvironmentsKey, Page<Environment>>();
  for (const batch of batches.values()) {
    // Same list as projectEnvironments (environment.service.ts `list`): by id, on the (project_id, id) index.
    const pages = await offsetPagesByKey(ctx.em, {
      select: 'e.*', from: 'environments e', where: [], params: [], orderBy: 'e.id', dir: 'asc', id: 'e.id',
      map: (row) => ctx.em.map(Environment, row as never),
    }, 'e.project_id', [...new Set(batch.map((k) => k.projectId))], batch[0].args);
    for (const k of batch) out.set(k, pages.get(k.projectId)!);
  }
  return keys.map((k) => out.get(k)!);
}

export function environmentListLoaders(ctx: RequestCtx) {
  return {
    projectEnvironmentLists: new DataLoader<EnvironmentsKey, Page<Environment>, string>((keys) => loadEnvironments(ctx, keys), {
      cacheKeyFn: (k) => `${k.projectId}:${argsKey(k.args)}`,
    }),
  };
}

type EnvironmentListLoaders = ReturnType<typeof environmentListLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends EnvironmentListLoaders {}
}

/** A project's environments as its field (GitLab's `Project.environments`), for those who may list them as projectEnvironments. */
@Resolver(() => ProjectType)
export class ProjectEnvironmentsResolver {
  @FieldResolver(() => EnvironmentPage, { nullable: true, description: 'The project\'s environments by id; null when the caller may not list them (Reporter or above, with jobs enabled).' })
  @Reads('id', 'jobsEnabled')
  async environments(@Root() p: Project, @Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<Environment> | null> {
    const level = ctx.user ? await ctx.loaders.projectLevel.load(p.id) : 0;
    if (!policy.canEnvironment(ctx.user, level, p.jobsEnabled, 'read')) return null;
    return ctx.loaders.projectEnvironmentLists.load({ projectId: p.id, args: { page: args.page, perPage: args.perPage, first: args.first, after: args.after, last: args.last, before: args.before } });
  }
}
