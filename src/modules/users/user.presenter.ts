import { bool, computed, int, shape, str, time } from '../../core/wire/wire';

/** GitLab 10.x user entities: UserBasic < User < UserPublic < UserWithAdmin. */
const BASIC = {
  id: int('id'),
  name: str('name'),
  username: str('username'),
  state: str('state'),
  avatar_url: str('avatarUrl', { nullable: true }),
  web_url: str('webUrl'),
};
export const UserBasicWire = shape('UserBasic', BASIC);

const USER = {
  ...BASIC,
  created_at: time('createdAt'),
  bio: str('bio'),
  location: str('location'),
  skype: str('skype'),
  linkedin: str('linkedin'),
  twitter: str('twitter'),
  website_url: str('websiteUrl'),
  organization: str('organization'),
};
export const UserWire = shape('User', USER);

const nothing = (type: 'string' | 'timestamp' | 'date') => computed('id', type, () => null);

const PUBLIC = {
  ...USER,
  last_sign_in_at: nothing('timestamp'),
  confirmed_at: computed('createdAt', 'timestamp', (v) => v),
  last_activity_on: nothing('date'),
  email: str('email', { nullable: true }),
  theme_id: computed('id', 'integer', () => 1),
  color_scheme_id: computed('id', 'integer', () => 1),
  projects_limit: int('projectsLimit', { nullable: true }),
  current_sign_in_at: nothing('timestamp'),
  identities: { ...computed('id', 'string', () => []), array: true },
  can_create_group: bool('canCreateGroup', { nullable: true }),
  can_create_project: bool('canCreateProject', { nullable: true }),
  two_factor_enabled: computed('id', 'boolean', () => false),
  external: bool('external', { nullable: true }),
};
export const UserPublicWire = shape('UserPublic', PUBLIC);
export const UserWithAdminWire = shape('UserWithAdmin', { ...PUBLIC, is_admin: bool('isAdmin', { nullable: true }) });
