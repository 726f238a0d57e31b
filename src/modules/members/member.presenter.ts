import { date, int, shape, str } from '../../core/wire/wire';

export const MemberWire = shape('Member', {
  id: int(),
  name: str(),
  username: str(),
  state: str(),
  avatar_url: str({ nullable: true }),
  web_url: str(),
  access_level: int(),
  expires_at: date({ nullable: true }),
});
