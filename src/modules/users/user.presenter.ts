import { bool, computed, date, int, list, lowerEnum, shape, str, time } from '../../core/wire/wire';

/** GitLab 10.x user entities: UserBasic < User < UserPublic < UserWithAdmin. */
/** UserBasic's keys, also the start of a member record. */
export const USER_BASIC_FIELDS = {
  id: int(),
  name: str(),
  username: str(),
  state: str(),
  avatar_url: str({ nullable: true }),
  web_url: str(),
};
export const UserBasicWire = shape('UserBasic', USER_BASIC_FIELDS);

const USER = {
  ...USER_BASIC_FIELDS,
  created_at: time(),
  bio: str(),
  location: str(),
  skype: str(),
  linkedin: str(),
  twitter: str(),
  website_url: str(),
  organization: str(),
};
export const UserWire = shape('User', USER);

/** GitLab 10.3's Entities::Identity. */
export const IdentityWire = shape('Identity', { provider: str(), extern_uid: str() });

const nothing = (type: 'string' | 'timestamp' | 'date') => computed('id', type, () => null);

const PUBLIC = {
  ...USER,
  last_sign_in_at: nothing('timestamp'),
  confirmed_at: computed('createdAt', 'timestamp', (v) => v),
  last_activity_on: date({ nullable: true }),
  email: str({ nullable: true }),
  theme_id: computed('id', 'integer', () => 1),
  color_scheme_id: computed('id', 'integer', () => 1),
  projects_limit: int({ nullable: true }),
  current_sign_in_at: nothing('timestamp'),
  identities: list(IdentityWire),
  can_create_group: bool({ nullable: true }),
  can_create_project: bool({ nullable: true }),
  two_factor_enabled: computed('id', 'boolean', () => false),
  external: bool({ nullable: true }),
};
export const UserPublicWire = shape('UserPublic', PUBLIC);
export const UserWithAdminWire = shape('UserWithAdmin', { ...PUBLIC, is_admin: bool({ nullable: true }) });

/** GitLab 10.3's Entities::UserActivity (`last_activity_at`: the same day, kept for old clients). */
export const UserActivityWire = shape('UserActivity', {
  username: str(),
  last_activity_on: date(),
  last_activity_at: date('lastActivityOn'),
});

/** GitLab's Entities::UserStatus (GET|PUT /user/status, GET /users/:id/status). */
export const UserStatusWire = shape('UserStatus', {
  emoji: str({ nullable: true }),
  availability: lowerEnum(['not_set', 'busy'], { nullable: true }),
  message: str({ nullable: true }),
  message_html: str({ nullable: true }),
  clear_status_at: time({ nullable: true }),
});

/** GitLab's Entities::UserPreferences (GET|PUT /user/preferences; the docs' keys). */
export const UserPreferencesWire = shape('UserPreferences', {
  id: int({ nullable: true }),
  user_id: int(),
  view_diffs_file_by_file: bool(),
  show_whitespace_in_diffs: bool(),
  pass_user_identities_to_ci_jwt: bool(),
});

/** GitLab's Entities::UserAssociationsCount. */
export const UserAssociationsCountWire = shape('UserAssociationsCount', {
  groups_count: int(),
  projects_count: int(),
  issues_count: int(),
  merge_requests_count: int(),
});

/** GitLab's Entities::Avatar (GET /avatar). */
export const AvatarWire = shape('Avatar', { avatar_url: str({ nullable: true }) });
