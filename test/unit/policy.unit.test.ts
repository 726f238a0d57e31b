import { namespacePolicy } from '../../src/modules/namespaces/namespace.policy';
import { groupPolicy } from '../../src/modules/groups/group.policy';
import { projectPolicy } from '../../src/modules/projects/project.policy';
import { userPolicy } from '../../src/modules/users/user.policy';
import type { User } from '../../src/modules/users/user.entity';

const user = (over: Partial<User> = {}) =>
  ({ id: 7, admin: false, canCreateGroup: true, external: false, ...over }) as User;

describe('permission policy', () => {
  it('group administration needs Owner (inherited levels included) or admin', () => {
    expect(namespacePolicy.canAdminGroup(null, 50)).toBe(false);
    expect(namespacePolicy.canAdminGroup(user(), 40)).toBe(false);
    expect(namespacePolicy.canAdminGroup(user(), 50)).toBe(true);
    expect(namespacePolicy.canAdminGroup(user({ admin: true }), 0)).toBe(true);
  });

  it('project administration needs Master; deletion needs Owner', () => {
    expect(projectPolicy.canAdminProject(user(), 30)).toBe(false);
    expect(projectPolicy.canAdminProject(user(), 40)).toBe(true);
    expect(projectPolicy.canDeleteProject(user(), 40)).toBe(false);
    expect(projectPolicy.canDeleteProject(user(), 50)).toBe(true);
  });

  it('top-level groups follow can_create_group; statistics are admin-only', () => {
    expect(groupPolicy.canCreateTopLevelGroup(user({ canCreateGroup: false }))).toBe(false);
    expect(groupPolicy.canCreateTopLevelGroup(user({ canCreateGroup: false, admin: true }))).toBe(true);
    expect(groupPolicy.canSeeStatistics(user())).toBe(false);
    expect(groupPolicy.canSeeStatistics(user({ admin: true }))).toBe(true);
  });

  it('private user fields are for the user themself and admins', () => {
    expect(userPolicy.canSeePrivateUserFields(user(), 7)).toBe(true);
    expect(userPolicy.canSeePrivateUserFields(user(), 8)).toBe(false);
    expect(userPolicy.canSeePrivateUserFields(null, 7)).toBe(false);
  });
});
