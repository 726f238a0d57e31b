import { int, shape, str } from '../../core/wire/wire';

/** Later GitLab's Entities::Membership. */
export const UserMembershipWire = shape('Membership', {
  source_id: int(),
  source_name: str(),
  source_type: str(),
  access_level: int(),
});
