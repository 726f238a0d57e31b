import { defineModule } from '../../core/module/app-module';
import { Avatar } from './avatar.entity';
import { Migration20261125150000Avatars } from './migrations/Migration20261125150000_avatars';
import { Migration20261212090100GroupAvatars } from './migrations/Migration20261212090100_group_avatars';
import { Migration20261231090000GroupAvatarsCacheNotify } from './migrations/Migration20261231090000_group_avatars_cache_notify';

// The door: what other modules may use (docs/architecture.md, "Modules").
export { AVATAR_MAX_BYTES, avatarProblems } from './avatar-image';
export { avatarDownload } from './avatar.downloads';
export {
  avatarFileOf,
  avatarFilenameSql,
  avatarFilenames,
  avatarUrl,
  saveAvatar,
  storedAvatarOf,
  type AvatarModel,
  type JoinAvatarOwner,
} from './avatar.store';
export { GROUP_AVATARS_EXIST_KEY, groupAvatarsExist } from './group-avatars-exist';

/**
 * Avatars of users, projects and groups: stored in PostgreSQL, served at GitLab's /uploads paths
 * (docs/security.md#avatars) by the routes the users and projects modules declare with `avatarDownload`.
 */
export const avatarsModule = defineModule({
  name: 'avatars',
  entities: [Avatar],
  migrations: [
    { name: 'Migration20261125150000_avatars', class: Migration20261125150000Avatars },
    { name: 'Migration20261212090100_group_avatars', class: Migration20261212090100GroupAvatars },
    {
      name: 'Migration20261231090000_group_avatars_cache_notify',
      class: Migration20261231090000GroupAvatarsCacheNotify,
    },
  ],
});
