import { date, int, shape } from '../../core/wire/wire';
import { USER_BASIC_FIELDS } from '../users/user.presenter';

/** A member is the UserBasic record plus the membership (spec 4.13). */
export const MemberWire = shape('Member', {
  ...USER_BASIC_FIELDS,
  access_level: int(),
  expires_at: date({ nullable: true }),
});
