import { policy } from '../../src/modules/access/policy';
import type { User } from '../../src/modules/users/user.entity';

const user = (over: Partial<User> = {}) =>
  ({ id: 7, admin: false, canCreateGroup: true, external: false, ...over }) as User;

describe('permission policy', () => {
  it('group administration needs Owner (inherited levels included) or admin', () => {
    expect(policy.canAdminGroup(null, 50)).toBe(false);
    expect(policy.canAdminGroup(user(), 40)).toBe(false);
    expect(policy.canAdminGroup(user(), 50)).toBe(true);
    expect(policy.canAdminGroup(user({ admin: true }), 0)).toBe(true);
  });

  it('project administration needs Master; deletion needs Owner', () => {
    expect(policy.canAdminProject(user(), 30)).toBe(false);
    expect(policy.canAdminProject(user(), 40)).toBe(true);
    expect(policy.canDeleteProject(user(), 40)).toBe(false);
    expect(policy.canDeleteProject(user(), 50)).toBe(true);
  });

  it('top-level groups follow can_create_group; statistics are admin-only', () => {
    expect(policy.canCreateTopLevelGroup(user({ canCreateGroup: false }))).toBe(false);
    expect(policy.canCreateTopLevelGroup(user({ canCreateGroup: false, admin: true }))).toBe(true);
    expect(policy.canSeeStatistics(user())).toBe(false);
    expect(policy.canSeeStatistics(user({ admin: true }))).toBe(true);
  });

  it('private user fields are for the user themself and admins', () => {
    expect(policy.canSeePrivateUserFields(user(), 7)).toBe(true);
    expect(policy.canSeePrivateUserFields(user(), 8)).toBe(false);
    expect(policy.canSeePrivateUserFields(null, 7)).toBe(false);
  });
});
