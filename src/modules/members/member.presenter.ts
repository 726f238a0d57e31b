import { date, int, shape } from '../../core/wire/wire';
import { USER_BASIC_FIELDS } from '../users';

/**
 * A member is the UserBasic record plus the membership (spec 4.13). REST's `id` is the user's id
 * (GraphQL `Member.id` is the membership's own), and `access_level` the plain integer.
 */
export const MemberWire = shape('Member', {
  ...USER_BASIC_FIELDS,
  id: int('userId'),
  access_level: int('accessLevelValue'),
  expires_at: date({ nullable: true }),
});
