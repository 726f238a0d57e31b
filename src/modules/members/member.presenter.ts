import { date, int, shape, str } from '../../core/wire/wire';

export const MemberWire = shape('Member', {
  id: int('id'),
  name: str('name'),
  username: str('username'),
  state: str('state'),
  avatar_url: str('avatarUrl', { nullable: true }),
  web_url: str('webUrl'),
  access_level: int('accessLevel'),
  expires_at: date('expiresAt', { nullable: true }),
});
