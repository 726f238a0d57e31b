import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../support/factories';
import type { TestApp } from '../support/test-app';
import { createRunner, type TestRunner } from './runner-factories';

export interface RunnerWorld {
  /** Master of `project` through the group. */
  master: TestUser;
  /** Master directly on `project` only. */
  projectMaster: TestUser;
  developer: TestUser;
  stranger: TestUser;
  project: TestProject;
  other: TestProject;
  specific: TestRunner;
  shared: TestRunner;
  /** Enabled in `project` and `other`. */
  multi: TestRunner;
}

/** The permission matrix's cast: a private group project with a Master, a developer and a stranger. */
export async function runnerWorld(t: TestApp): Promise<RunnerWorld> {
  const group = await createGroup(t, { path: 'ci-group', name: 'CI Group', visibility: 'private' });
  const project = await createProject(t, { namespace: group, path: 'app', name: 'App' });
  const other = await createProject(t, { namespace: group, path: 'other', name: 'Other' });
  const master = await createUser(t, { username: 'master' });
  const projectMaster = await createUser(t, { username: 'pmaster' });
  const developer = await createUser(t, { username: 'developer' });
  const stranger = await createUser(t, { username: 'stranger' });
  await addGroupMember(t, group, master, 40);
  await addProjectMember(t, project, projectMaster, 40);
  await addProjectMember(t, project, developer, 30);
  const specific = await createRunner(t, { description: 'specific', projects: [project] });
  const shared = await createRunner(t, { description: 'shared', shared: true });
  const multi = await createRunner(t, { description: 'multi', projects: [project, other] });
  return { master, projectMaster, developer, stranger, project, other, specific, shared, multi };
}
