import DataLoader from 'dataloader';
import { Arg, Ctx, Field, FieldResolver, ID, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { ForbiddenError } from '../../core/errors/domain-errors';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import { Reads } from '../../core/graphql/reads';
import { intArray, policy } from '../access';
import { ProjectType, projectPolicy, projectService, type Project } from '../projects';

/**
 * A project's CI/CD settings (GitLab's `project_ci_cd_settings`, migration project_ci_cd_settings). Of
 * GitLab's, the one this service has: `group_runners_enabled`, whether the project takes its groups'
 * runners (GitLab's default true). There are no group runners here, so the setting is stored and shown,
 * and no runner list changes with it.
 */
@ObjectType('ProjectCiCdSetting', { description: "A project's CI/CD settings (its Maintainers and administrators)." })
export class ProjectCiCdSettingType {
  @Field(() => Boolean, {
    nullable: true,
    description: 'Indicates whether group runners are enabled for the project.',
  })
  groupRunnersEnabled!: boolean;
}

interface SettingsRow {
  projectId: number;
  groupRunnersEnabled: boolean;
}

/** The settings of many projects in one statement; a project without a row has the defaults. */
async function loadSettings(ctx: RequestCtx, projectIds: readonly number[]): Promise<SettingsRow[]> {
  const rows = await sqlRows<{ project_id: number; group_runners_enabled: boolean }>(
    ctx.em,
    `select project_id, group_runners_enabled from project_ci_cd_settings where project_id = any(${intArray(projectIds)})`,
  );
  const byId = new Map(rows.map((r) => [Number(r.project_id), r.group_runners_enabled]));
  return projectIds.map((id) => ({ projectId: id, groupRunnersEnabled: byId.get(id) ?? true }));
}

export function ciCdSettingsLoaders(ctx: RequestCtx) {
  return {
    /** `Project.ciCdSettings` across the projects of a list: one statement. */
    projectCiCdSettings: new DataLoader<number, SettingsRow>((ids) => loadSettings(ctx, ids)),
  };
}

type CiCdSettingsLoaders = ReturnType<typeof ciCdSettingsLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends CiCdSettingsLoaders {}
}

/** GitLab's admin_project on the settings: Maintainer (10.3's Master) or above, or an administrator. */
async function mayAdmin(ctx: RequestCtx, projectId: number): Promise<boolean> {
  const level = ctx.user && !policy.isAdmin(ctx.user) ? await ctx.loaders.projectLevel.load(projectId) : 0;
  return projectPolicy.canAdminProject(ctx.user, level);
}

/** GitLab's ProjectCiCdSettingsUpdate: the given settings of a project its Maintainers administer. */
async function update(ctx: RequestCtx, fullPath: string, groupRunnersEnabled: boolean | null | undefined) {
  const project = await projectService.findVisible(ctx, { path: fullPath });
  if (!(await mayAdmin(ctx, project.id))) throw new ForbiddenError();
  if (groupRunnersEnabled !== undefined && groupRunnersEnabled !== null) {
    await sqlRows(
      ctx.em,
      `insert into project_ci_cd_settings (project_id, group_runners_enabled) values (?, ?)
       on conflict (project_id) do update set group_runners_enabled = excluded.group_runners_enabled`,
      [project.id, groupRunnersEnabled],
    );
    ctx.loaders.projectCiCdSettings.clear(project.id);
  }
  return ctx.loaders.projectCiCdSettings.load(project.id);
}

@Resolver(() => ProjectType)
export class ProjectCiCdSettingsResolver {
  @FieldResolver(() => ProjectCiCdSettingType, {
    nullable: true,
    description: "The project's CI/CD settings; null below Maintainer.",
  })
  @Reads('id')
  async ciCdSettings(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<SettingsRow | null> {
    return (await mayAdmin(ctx, p.id)) ? ctx.loaders.projectCiCdSettings.load(p.id) : null;
  }

  @Mutation(() => ProjectCiCdSettingType, {
    description: 'Changes the given CI/CD settings of a project (its Maintainers and administrators).',
  })
  @Allow('user')
  @PayloadMutation({ name: 'projectCiCdSettingsUpdate', field: 'ciCdSettings' })
  updateProjectCiCdSettings(
    @Arg('fullPath', () => ID, { description: 'Full path of the project the settings belong to.' }) fullPath: string,
    @Arg('groupRunnersEnabled', () => Boolean, {
      nullable: true,
      description: 'Indicates whether group runners are enabled for the project.',
    })
    groupRunnersEnabled: boolean | null | undefined,
    @Ctx() ctx: RequestCtx,
  ): Promise<SettingsRow> {
    return update(ctx, fullPath, groupRunnersEnabled);
  }
}
