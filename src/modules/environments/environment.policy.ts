import type { CurrentUser as User } from '../../core/context/request-ctx';
import { AccessLevel, policy } from '../access';

/** Minimum project role per environment operation (GitLab 10.3, spec 4.30-4.34). */
const ENVIRONMENT_ROLE = {
  read: AccessLevel.REPORTER,
  create: AccessLevel.DEVELOPER,
  update: AccessLevel.MASTER,
  destroy: AccessLevel.MASTER,
  stop: AccessLevel.DEVELOPER,
} as const;
export type EnvironmentAction = keyof typeof ENVIRONMENT_ROLE;

/** Who may do what with a project's environments (docs/permissions.md). */
export const environmentPolicy = {
  /** Reporter reads, developer creates and stops, master updates and deletes; jobs disabled forbids all, admins included. */
  canEnvironment: (user: User | null, level: number, jobsEnabled: boolean, action: EnvironmentAction) =>
    jobsEnabled && policy.atLeast(user, level, ENVIRONMENT_ROLE[action]),
};
