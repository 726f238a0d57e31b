import { bool, date, int, shape, str, strList, time } from '../../core/wire/wire';

const FIELDS = {
  id: int(),
  name: str(),
  revoked: bool(),
  created_at: time(),
  scopes: strList(),
  user_id: int(),
  active: bool(),
  expires_at: date({ nullable: true }),
  impersonation: bool(),
};
export const ImpersonationTokenWire = shape('ImpersonationToken', FIELDS);
export const ImpersonationTokenWithTokenWire = shape('ImpersonationTokenWithToken', { ...FIELDS, token: str() });
