import { policy } from '../../src/modules/access/policy';
import type { User } from '../../src/modules/users/user.entity';

const user = (admin = false) => ({ id: 7, admin, canCreateGroup: true, external: false }) as User;

describe('policy.canEnvironment (GitLab 10.3 roles, spec 4.30-4.34)', () => {
  it.each([
    ['read', 20],
    ['create', 30],
    ['stop', 30],
    ['update', 40],
    ['destroy', 40],
  ] as const)('%s needs access level %i', (action, level) => {
    expect(policy.canEnvironment(user(), level - 10, true, action)).toBe(false);
    expect(policy.canEnvironment(user(), level, true, action)).toBe(true);
    expect(policy.canEnvironment(user(true), 0, true, action)).toBe(true);
    expect(policy.canEnvironment(null, 50, true, action)).toBe(false);
  });

  it('jobs disabled forbids everything, administrators included', () => {
    for (const action of ['read', 'create', 'stop', 'update', 'destroy'] as const) {
      expect(policy.canEnvironment(user(true), 50, false, action)).toBe(false);
    }
  });
});
