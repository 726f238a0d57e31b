import type { CurrentUser } from '../../core/context/request-ctx';
import { AccessLevel } from '../access/access-level';
import { policy } from '../access/policy';

export type EnvironmentAction = 'read' | 'create' | 'update' | 'destroy' | 'stop';

/** GitLab 10.3 roles (spec 4.30-4.34): read_environment, create_environment, update_environment, create_deployment. */
const MINIMUM: Record<EnvironmentAction, number> = {
  read: AccessLevel.REPORTER,
  create: AccessLevel.DEVELOPER,
  update: AccessLevel.MASTER,
  destroy: AccessLevel.MASTER,
  stop: AccessLevel.DEVELOPER,
};

/**
 * May the caller do `action` on the environments of a project? Jobs (builds) disabled on the project
 * forbids every environment operation, administrators included (GitLab's policy prevents it).
 */
export function canEnvironment(user: CurrentUser, level: number, jobsEnabled: boolean, action: EnvironmentAction): boolean {
  if (!jobsEnabled) return false;
  return policy.isAdmin(user) || level >= MINIMUM[action];
}
