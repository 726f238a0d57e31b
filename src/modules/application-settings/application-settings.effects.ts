import type { RequestCtx } from '../../core/context/request-ctx';
import { policy, toVisibility } from '../access';
import { currentSettings } from './application-settings.service';

/**
 * Where the settings take effect in other modules (spec 4.18; docs/application-settings.md#where-settings-take-effect):
 * the groups, projects and users services call these with their request context.
 */

/** default_group_visibility / default_project_visibility: the level of a create that omits visibility. */
export async function defaultVisibilityLevel(ctx: RequestCtx, of: 'group' | 'project'): Promise<number> {
  const s = await currentSettings(ctx);
  return Number(of === 'group' ? s.default_group_visibility : s.default_project_visibility);
}

/**
 * restricted_visibility_levels: GitLab's model error when a non-administrator uses a restricted
 * level (`public has been restricted by your GitLab administrator`), else undefined.
 */
export async function visibilityRestriction(ctx: RequestCtx, level: number): Promise<string | undefined> {
  if (policy.isAdmin(ctx.user)) return undefined;
  const restricted = (await currentSettings(ctx)).restricted_visibility_levels as number[] | null;
  if (!restricted?.includes(level)) return undefined;
  return `${toVisibility(level).toLowerCase()} has been restricted by your GitLab administrator`;
}

/** shared_runners_enabled: the default of a new project's shared_runners_enabled. */
export async function sharedRunnersDefault(ctx: RequestCtx): Promise<boolean> {
  return (await currentSettings(ctx)).shared_runners_enabled === true;
}

export interface NewUserDefaults {
  projectsLimit: number;
  external: boolean;
}

/** default_projects_limit and user_default_external for a user created without them. */
export async function newUserDefaults(ctx: RequestCtx): Promise<NewUserDefaults> {
  const s = await currentSettings(ctx);
  return { projectsLimit: Number(s.default_projects_limit), external: s.user_default_external === true };
}
