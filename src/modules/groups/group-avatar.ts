import type { DownloadRoute } from '../../core/module/app-module';
import { NotFoundError } from '../../core/errors/domain-errors';
import { avatarDownload, storedAvatarOf } from '../avatars';
import { joinNamespace } from '../namespaces';
import { groupVisibility } from '../projects';
import { groupService } from './group.service';

/**
 * Group avatars (later GitLab: `avatar` on POST/PUT /groups): the image at GitLab's upload path, and
 * GET /api/v4/groups/:id/avatar (doc/api/groups.md "Download a group avatar": the file itself; a group
 * the caller may not see is 404 Group Not Found, one without an avatar 404 Avatar Not Found; sent as an
 * attachment, as GitLab's API::GroupAvatar).
 */
export const groupAvatarDownloads: DownloadRoute[] = [
  avatarDownload(
    'group',
    (owner) => joinNamespace(owner, 'o'),
    (ctx) => groupVisibility(ctx, 'o'),
  ),
  {
    path: '/api/v4/groups/:id/avatar',
    find: async (ctx, p) => {
      const group = await groupService.findVisible(ctx, p.id);
      const file = await storedAvatarOf(ctx.em, 'group', group.id);
      if (!file) throw new NotFoundError('Avatar');
      return { ...file, attachment: true };
    },
  },
];
