import type { CurrentUser as User } from '../../core/context/request-ctx';
import { AccessLevel } from './access-level';

/**
 * The permission model in one place (pure functions over the caller and its effective access level;
 * visibility *sets* are the SQL twins in visibility-sql.ts). Effective levels include membership
 * inherited from ancestor groups and shares (access-levels.ts computes them in SQL).
 */
/** Minimum project role per environment operation (GitLab 10.3, spec 4.30-4.34). */
const ENVIRONMENT_ROLE = {
  read: AccessLevel.REPORTER,
  create: AccessLevel.DEVELOPER,
  update: AccessLevel.MASTER,
  destroy: AccessLevel.MASTER,
  stop: AccessLevel.DEVELOPER,
} as const;
export type EnvironmentAction = keyof typeof ENVIRONMENT_ROLE;

export const policy = {
  /** Instance administrators: every object, every admin-only field and filter. */
  isAdmin: (user: User | null) => !!user && user.admin,
  /** Update, delete, create subgroups, manage members of a group: Owner (incl. inherited) or admin. */
  canAdminGroup: (user: User | null, level: number) => !!user && (user.admin || level >= AccessLevel.OWNER),
  /** Create a project in a group: Master or above (GitLab 10.x). */
  canCreateProjectInGroup: (user: User | null, level: number) => !!user && (user.admin || level >= AccessLevel.MASTER),
  /** Top-level groups: the user's can_create_group flag; never external users (GitLab forces can_create_group off for them). */
  canCreateTopLevelGroup: (user: User | null) => !!user && (user.admin || (user.canCreateGroup && !user.external)),
  /** Update, archive, share, manage members, see runners_token: Master or above. */
  canAdminProject: (user: User | null, level: number) => !!user && (user.admin || level >= AccessLevel.MASTER),
  /**
   * GitLab's read_build on a project the caller can see: jobs enabled, and public jobs or Reporter and
   * above (admins always). `level` is only read when the jobs are not public.
   */
  canReadJobs: (user: User | null, project: { jobsEnabled: boolean; publicJobs: boolean }, level: () => number) =>
    project.jobsEnabled && (project.publicJobs || (!!user && (user.admin || level() >= AccessLevel.REPORTER))),
  /** Environments: reporter reads, developer creates and stops, master updates and deletes; jobs disabled forbids all, admins included. */
  canEnvironment: (user: User | null, level: number, jobsEnabled: boolean, action: EnvironmentAction) =>
    !!user && jobsEnabled && (user.admin || level >= ENVIRONMENT_ROLE[action]),
  /** Fork a project (GitLab 10.3's :fork_project): Reporter or above, a project open to the caller (public; internal for non-external users), or admin. */
  canForkProject: (user: User | null, level: number, openToCaller: boolean) =>
    !!user && (user.admin || openToCaller || level >= AccessLevel.REPORTER),
  /** Delete a project, or remove its fork relation: Owner (personal namespace owner or group owner) or admin. */
  canDeleteProject: (user: User | null, level: number) => !!user && (user.admin || level >= AccessLevel.OWNER),
  /** Group statistics and custom attributes: administrators only (spec 5.3). */
  canSeeStatistics: (user: User | null) => !!user && user.admin,
  /** Group custom attributes (fields and list filters): administrators only. */
  canSeeCustomAttributes: (user: User | null) => !!user && user.admin,
  /** A project in a personal namespace: its owner or an admin. */
  canCreateProjectInUserNamespace: (user: User | null, ownerId: number | null) =>
    !!user && (user.admin || user.id === ownerId),
  /** The per-user project limit binds everyone but administrators. */
  hasProjectLimit: (user: User) => !user.admin,
  /** Personal projects allowed: external users have none (GitLab forces projects_limit to 0 for them). */
  projectsLimit: (user: User) => (user.external ? 0 : user.projectsLimit),
  /** Reading a private user's email and admin flag: self or admin. */
  canSeePrivateUserFields: (viewer: User | null, subjectId: number) =>
    !!viewer && (viewer.admin || viewer.id === subjectId),
};
