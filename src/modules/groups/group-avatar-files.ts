import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { avatarFilenameSql, avatarFilenames, groupAvatarsExist } from '../avatars';
import type { GroupRowExtra, Namespace } from '../namespaces';

/**
 * Groups' avatar file names. A group's row does not keep its avatar's name (the avatars module holds it:
 * Migration20261212090100_group_avatars says why), so a group list selects it with its rows
 * (`listedAvatarColumn`), as a group read by id or path does (`groupAvatarExtra`), and keeps it on each
 * row object under a key of its own (a property add every row of a list shares, cheaper per row than a
 * WeakMap entry). While no group has an avatar they select nothing for it (avatars' `groupAvatarsExist`).
 * A group read another way asks the per-request loader, one query per batch.
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

/** While no group has an avatar: the group read by id or path has none, without a probe. */
const NO_GROUP_AVATAR: GroupRowExtra = { sql: 'null::text', as: GROUP_AVATAR.as, keep: GROUP_AVATAR.keep };

/** findGroupBy's extra for one group: its avatar's file name while some group has an avatar (at once once cached). */
export function groupAvatarExtra(ctx: RequestCtx): GroupRowExtra | Promise<GroupRowExtra> {
  return byAvatarsExist(ctx, (exist) => (exist ? GROUP_AVATAR : NO_GROUP_AVATAR));
}

/** `pick` of whether any group has an avatar: at once when this instance knows, else once loaded. */
function byAvatarsExist<T>(ctx: RequestCtx, pick: (exist: boolean) => T): T | Promise<T> {
  const exist = groupAvatarsExist(ctx.cache, ctx.em);
  return typeof exist === 'boolean' ? pick(exist) : exist.then(pick);
}

const GROUP_AVATAR_COLUMN = `, ${GROUP_AVATAR.sql} as ${GROUP_AVATAR.as}`;

/**
 * What a group list selects beside `n.*` for its rows' avatars: the file name (a probe per row) while
 * some group has an avatar, nothing while none has one (known at once once cached).
 */
export function listedAvatarColumn(ctx: RequestCtx): string | Promise<string> {
  return byAvatarsExist(ctx, (exist) => (exist ? GROUP_AVATAR_COLUMN : ''));
}

/** Keeps a listed row's avatar file name with its group object: the row's `avatar_filename`, none without the column. */
export function keepListedAvatar(group: Namespace, row: Record<string, unknown>): void {
  GROUP_AVATAR.keep(group, GROUP_AVATAR.as in row ? row[GROUP_AVATAR.as] : null);
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
