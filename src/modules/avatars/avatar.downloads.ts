import type { DownloadRoute } from '../../core/module/app-module';
import { INT4_MAX } from '../../core/params/coerce';
import { projectVisibility } from '../access';
import { readAvatar } from './avatar.store';

const idOf = (raw: string | undefined): number | null =>
  raw && /^\d{1,10}$/.test(raw) && Number(raw) <= INT4_MAX ? Number(raw) : null;

/**
 * GitLab's avatar URLs. As its UploadsController (10.3): a user's avatar is public (`when User: true`);
 * a project's is readable by whoever may read the project (token by header or `private_token`), and
 * otherwise the same 404 as a missing file.
 */
export const avatarDownloads: DownloadRoute[] = [
  {
    path: '/uploads/-/system/user/avatar/:id/:filename',
    find: async (ctx, p) => {
      const id = idOf(p.id);
      return id === null ? null : readAvatar(ctx.em, 'user', id, p.filename);
    },
  },
  {
    path: '/uploads/-/system/project/avatar/:id/:filename',
    find: async (ctx, p) => {
      const id = idOf(p.id);
      return id === null ? null : readAvatar(ctx.em, 'project', id, p.filename, await projectVisibility(ctx, 'o'));
    },
  },
];
