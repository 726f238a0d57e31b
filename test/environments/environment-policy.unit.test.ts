import { environmentPolicy } from '../../src/modules/environments/environment.policy';
import type { User } from '../../src/modules/users/user.entity';

const user = (admin = false) => ({ id: 7, admin, canCreateGroup: true, external: false }) as User;

describe('environmentPolicy.canEnvironment (GitLab 10.3 roles, spec 4.30-4.34)', () => {
  it.each([
    ['read', 20],
    ['create', 30],
    ['stop', 30],
    ['update', 40],
    ['destroy', 40],
  ] as const)('%s needs access level %i', (action, level) => {
    expect(environmentPolicy.canEnvironment(user(), level - 10, true, action)).toBe(false);
    expect(environmentPolicy.canEnvironment(user(), level, true, action)).toBe(true);
    expect(environmentPolicy.canEnvironment(user(true), 0, true, action)).toBe(true);
    expect(environmentPolicy.canEnvironment(null, 50, true, action)).toBe(false);
  });

  it('jobs disabled forbids everything, administrators included', () => {
    for (const action of ['read', 'create', 'stop', 'update', 'destroy'] as const) {
      expect(environmentPolicy.canEnvironment(user(true), 50, false, action)).toBe(false);
    }
  });
});
