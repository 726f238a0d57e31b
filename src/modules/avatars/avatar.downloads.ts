import type { RequestCtx } from '../../core/context/request-ctx';
import type { DownloadRoute } from '../../core/module/app-module';
import { INT4_MAX } from '../../core/params/coerce';
import { readAvatar, type AvatarModel, type JoinAvatarOwner } from './avatar.store';

const idOf = (raw: string | undefined): number | null =>
  raw && /^\d{1,10}$/.test(raw) && Number(raw) <= INT4_MAX ? Number(raw) : null;

/**
 * GitLab's avatar URL of a model (`/uploads/-/system/<model>/avatar/:id/:filename`), declared by the
 * owner's module (users, projects), which knows its rows and who may see them. As GitLab's
 * UploadsController (10.3): without `visible` the avatar is public (a user's, `when User: true`); with
 * it, readable by whoever `visible` (an SQL predicate on the owner's row `o`) lets see the owner, and
 * otherwise the same 404 as a missing file.
 */
export function avatarDownload(
  model: AvatarModel,
  joinOwner: JoinAvatarOwner,
  visible?: (ctx: RequestCtx) => Promise<string>,
): DownloadRoute {
  return {
    path: `/uploads/-/system/${model}/avatar/:id/:filename`,
    find: async (ctx, p) => {
      const id = idOf(p.id);
      if (id === null) return null;
      return readAvatar(ctx.em, model, id, p.filename, joinOwner, visible ? await visible(ctx) : undefined);
    },
  };
}
