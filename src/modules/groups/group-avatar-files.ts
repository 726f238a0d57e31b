import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { avatarFilenameSql, avatarFilenames, groupAvatarsExist } from '../avatars';
import type { GroupRowExtra, Namespace } from '../namespaces';

/**
 * Groups' avatar file names. A group's row does not keep its avatar's name (the avatars module holds it:
 * Migration20261212090100_group_avatars says why), so a group list selects it with its rows
 * (`GROUP_AVATAR_SELECT`) and keeps it on each listed row object under a key of its own (a property add
 * every row of a list shares, cheaper per row than a WeakMap entry); a group read another way (by id,
 * by path) asks the per-request loader, one query per batch.
 */
const AVATAR = Symbol('group avatar file name');
type WithAvatar = Namespace & { [AVATAR]?: string | null };

/** The avatar's file name as a column `avatar_filename` read with the group row `n` (findGroupBy's extra). */
export const GROUP_AVATAR: GroupRowExtra = {
  sql: avatarFilenameSql('group', 'n.id'),
  as: 'avatar_filename',
  keep: (group, value) => {
    (group as WithAvatar)[AVATAR] = (value as string | null) ?? null;
  },
};

const GROUP_AVATAR_SELECT = `${GROUP_AVATAR.sql} as ${GROUP_AVATAR.as}`;
/** While no group has an avatar: every listed row's is known to be none, without a probe per row. */
const NO_GROUP_AVATAR_SELECT = `null::text as ${GROUP_AVATAR.as}`;

/** The list select's extra column (`avatar_filename`) over the group row `n`: a probe per row only while some group has an avatar (at once when known). */
export function listedAvatarSelect(ctx: RequestCtx): string | Promise<string> {
  const exist = groupAvatarsExist(ctx.cache, ctx.em);
  return typeof exist === 'boolean' ? avatarSelect(exist) : exist.then(avatarSelect);
}
const avatarSelect = (exist: boolean) => (exist ? GROUP_AVATAR_SELECT : NO_GROUP_AVATAR_SELECT);

/** Keeps a listed row's avatar file name (the row's `avatar_filename`) with its group object. */
export function keepListedAvatar(group: Namespace, row: Record<string, unknown>): void {
  if (GROUP_AVATAR.as in row) GROUP_AVATAR.keep(group, row[GROUP_AVATAR.as]);
}

/** The group's avatar file name (null without one): at once for a listed row, else through the loader. */
export function groupAvatarFile(ctx: RequestCtx, group: Namespace): string | null | Promise<string | null> {
  const known = (group as WithAvatar)[AVATAR];
  return known !== undefined ? known : ctx.loaders.groupAvatar.load(group.id);
}

/** After a write stored a new avatar: what this request reads of the group from now on. */
export function avatarStored(ctx: RequestCtx, group: Namespace, filename: string): void {
  (group as WithAvatar)[AVATAR] = filename;
  ctx.loaders.groupAvatar.clear(group.id).prime(group.id, filename);
}

/** Groups' avatar file names by group id (null without one): one query per batch of groups. */
export const groupAvatarLoaders = (ctx: RequestCtx) => ({
  groupAvatar: new DataLoader<number, string | null>(async (ids) => {
    const names = await avatarFilenames(ctx.em, 'group', ids);
    return ids.map((id) => names.get(id) ?? null);
  }),
});
type GroupAvatarLoaders = ReturnType<typeof groupAvatarLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends GroupAvatarLoaders {}
}
