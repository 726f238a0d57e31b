import { Args, ArgsType, Ctx, Field, FieldResolver, ID, Resolver, Root, registerEnumType } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import type { Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { AccessLevel, intArray, policy } from '../access';
import { GroupType } from '../groups';
import { descendantIds, type Namespace } from '../namespaces';
import { ProjectType, projectPolicy, projectService, projectsInGroup, type Project } from '../projects';
import { UserType, type User } from '../users';
import { listRunners, listRunnersByKey } from './runner-list.query';
import { ownedPage } from './runner-edges';
import { ownedRunnerIds } from './runner.policy';
import type { Runner } from './runner.entity';
import { RunnerFilterArgs } from './runner.inputs';
import { CiRunnerType, RunnerPage } from './runner.type';

/** GitLab's CiRunnerMembershipFilter: which runners a group's list includes. */
export enum CiRunnerMembershipFilter {
  DIRECT = 'DIRECT',
  DESCENDANTS = 'DESCENDANTS',
  ALL_AVAILABLE = 'ALL_AVAILABLE',
}
registerEnumType(CiRunnerMembershipFilter, {
  name: 'CiRunnerMembershipFilter',
  description:
    "Which runners a group's list includes. There are no group runners here, so DIRECT (the group's own group runners) is empty, DESCENDANTS is the project runners enabled in projects of the group and its subgroups, and ALL_AVAILABLE adds the instance (shared) runners.",
  valuesConfig: {
    DIRECT: { description: 'Runners of the group itself (group runners): none here.' },
    DESCENDANTS: {
      description:
        'Runners of the group and its descendants: the runners enabled in projects of the group or its subgroups.',
    },
    ALL_AVAILABLE: {
      description:
        'Every runner the group can use: DESCENDANTS plus the instance (shared) runners. With type INSTANCE_TYPE, the list `groupRunners(groupId:)` answers (the group and its ancestors have no group runners).',
    },
  },
});

@ArgsType()
export class GroupRunnersFieldArgs extends RunnerFilterArgs {
  @Field(() => CiRunnerMembershipFilter, {
    nullable: true,
    defaultValue: CiRunnerMembershipFilter.DESCENDANTS,
    description: 'Control which runners to include in the results.',
  })
  membership?: CiRunnerMembershipFilter | null;
}

@ArgsType()
export class UserRunnersArgs extends RunnerFilterArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      'Full path of a project: only the runners that can be assigned to it (project runners, not locked, not yet assigned to it); NOT_FOUND for a project the caller may not see.',
  })
  assignableToProjectPath?: string | null;
}

/**
 * A runner list of several sources, each `r.id = any(array(…))` or `r.is_shared` (index scans of
 * ci_runners_pkey and ci_runners_shared_idx ORed in one bitmap, not a filter over every runner); only
 * the sources `type` can match.
 */
function sources(type: RunnerFilterArgs['type'], shared: boolean, linked: string): string {
  const parts = [
    ...(type === CiRunnerType.INSTANCE_TYPE ? [] : [linked]),
    ...(shared && type !== CiRunnerType.PROJECT_TYPE ? ['r.is_shared'] : []),
  ];
  return parts.length ? `(${parts.join(' or ')})` : 'false';
}

/** GitLab's owned_or_instance_wide: the project's runners, and the instance runners when it takes shared runners. */
const projectKey = (type: RunnerFilterArgs['type'], shared: boolean) => ({
  match: sources(
    type,
    shared,
    'r.id = any(array(select rp.runner_id from ci_runner_projects rp where rp.project_id = page_keys.k))',
  ),
});

/** The runners enabled in projects of the group `page_keys.k` and its descendants (GitLab's belonging_to_group_or_project_descendants). */
const descendantsOf = (groupId: string) => {
  const rows = projectsInGroup(`any(${descendantIds(groupId)})`);
  return `r.id = any(array(select rp.runner_id from ${rows.from} join ci_runner_projects rp on rp.project_id = p.id where ${rows.where}))`;
};
const groupKey = (membership: CiRunnerMembershipFilter, type: RunnerFilterArgs['type']) => ({
  match:
    membership === CiRunnerMembershipFilter.DIRECT
      ? 'false'
      : sources(type, membership === CiRunnerMembershipFilter.ALL_AVAILABLE, descendantsOf('page_keys.k')),
});

type ProjectRunnersKey = RunnerFilterArgs & { shared: boolean };

export function runnerOwnerLoaders(ctx: RequestCtx) {
  return {
    /** `Project.runners` across the projects of a list: a count and a page statement per argument set (and shared runners setting). */
    projectRunnerPages: perParentPages<ProjectRunnersKey, Runner>(({ shared, ...args }, ids) =>
      listRunnersByKey(ctx, projectKey(args.type, shared), ids, args),
    ),
    /** `Group.runners` across the groups of a list: a count and a page statement per argument set. */
    groupRunnerPages: perParentPages<GroupRunnersFieldArgs, Runner>((args, ids) =>
      listRunnersByKey(ctx, groupKey(args.membership ?? CiRunnerMembershipFilter.DESCENDANTS, args.type), ids, args),
    ),
  };
}

type RunnerOwnerLoaders = ReturnType<typeof runnerOwnerLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends RunnerOwnerLoaders {}
}

@Resolver(() => ProjectType)
export class ProjectRunnersResolver {
  @FieldResolver(() => RunnerPage, {
    nullable: true,
    description:
      "The runners the project can use (GitLab's): the ones enabled in it, and the shared runners while it takes shared runners; null below Maintainer.",
  })
  @Reads('id', 'sharedRunnersEnabled')
  async runners(
    @Root() p: Project,
    @Args() args: RunnerFilterArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Runner> | null> {
    const level = ctx.user && !policy.isAdmin(ctx.user) ? await ctx.loaders.projectLevel.load(p.id) : 0;
    if (!projectPolicy.canAdminProject(ctx.user, level)) return null;
    const page = await ctx.loaders.projectRunnerPages.load({
      parentId: p.id,
      args: { ...args, shared: p.sharedRunnersEnabled },
    });
    return ownedPage(page, { project: p });
  }
}

@Resolver(() => GroupType)
export class GroupRunnersFieldResolver {
  @FieldResolver(() => RunnerPage, {
    nullable: true,
    description:
      "The group's runners by `membership` (GitLab's, default DESCENDANTS; see CiRunnerMembershipFilter): the group's Maintainers and administrators; null for others.",
  })
  async runners(
    @Root() g: Namespace,
    @Args() args: GroupRunnersFieldArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Runner> | null> {
    const level = ctx.user && !policy.isAdmin(ctx.user) ? await ctx.loaders.groupLevel.load(g.id) : 0;
    if (!policy.atLeast(ctx.user, level, AccessLevel.MASTER)) return null;
    const page = await ctx.loaders.groupRunnerPages.load({ parentId: g.id, args: { ...args } });
    return ownedPage(page, { group: g });
  }
}

@Resolver(() => UserType)
export class UserRunnersFieldResolver {
  @FieldResolver(() => RunnerPage, {
    nullable: true,
    description:
      'The project runners the user may assign to projects: those enabled in projects where they are Maintainer or above; only for the signed-in user themself, null for others.',
  })
  async runners(@Root() u: User, @Args() args: UserRunnersArgs, @Ctx() ctx: RequestCtx): Promise<Page<Runner> | null> {
    if (!ctx.user || Number(ctx.user.id) !== u.id) return null;
    const where = [`r.id = any(${intArray(await ownedRunnerIds(ctx))})`];
    const params: unknown[] = [];
    if (args.assignableToProjectPath) {
      // GitLab's assignable_for(project): project runners, not locked, not assigned to it yet.
      const project = await projectService.findVisible(ctx, { path: args.assignableToProjectPath });
      where.push('not r.is_shared and not r.locked');
      where.push('r.id not in (select rp.runner_id from ci_runner_projects rp where rp.project_id = ?)');
      params.push(project.id);
    }
    return listRunners(ctx, where.join(' and '), params, undefined, args);
  }
}
