import { bool, date, int, shape, str, strList, time } from '../../core/wire/wire';

const FIELDS = {
  id: int('id'),
  name: str('name'),
  revoked: bool('revoked'),
  created_at: time('createdAt'),
  scopes: strList('scopes'),
  user_id: int('userId'),
  active: bool('active'),
  expires_at: date('expiresAt', { nullable: true }),
  impersonation: bool('impersonation'),
};
export const ImpersonationTokenWire = shape('ImpersonationToken', FIELDS);
export const ImpersonationTokenWithTokenWire = shape('ImpersonationTokenWithToken', { ...FIELDS, token: str('token') });
