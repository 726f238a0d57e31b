import { bool, date, int, shape, str, strList, time } from '../../core/wire/wire';

/** The keys every token entity starts with, in GitLab's order. */
const TOKEN_FIELDS = {
  id: int(),
  name: str(),
  revoked: bool(),
  created_at: time(),
  scopes: strList(),
  user_id: int(),
};
const FIELDS = {
  ...TOKEN_FIELDS,
  active: bool(),
  expires_at: date({ nullable: true }),
  impersonation: bool(),
};
export const ImpersonationTokenWire = shape('ImpersonationToken', FIELDS);
export const ImpersonationTokenWithTokenWire = shape('ImpersonationTokenWithToken', { ...FIELDS, token: str() });

/** Later GitLab's Entities::PersonalAccessToken (docs/rest.md#personal-access-tokens). */
const PAT_FIELDS = {
  ...TOKEN_FIELDS,
  last_used_at: time({ nullable: true }),
  active: bool(),
  expires_at: date({ nullable: true }),
};
export const PersonalAccessTokenWire = shape('PersonalAccessToken', PAT_FIELDS);
export const PersonalAccessTokenWithTokenWire = shape('PersonalAccessTokenWithToken', { ...PAT_FIELDS, token: str() });
