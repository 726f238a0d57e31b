import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../core/db/sql';
import type { StoredFile } from '../../core/http/stored-file';
import { UploadedFile } from '../../core/http/uploaded-file';
import { sanitizeFilename, sniffImage } from './avatar-image';

/** Who an avatar belongs to; GitLab's upload path names the model (`/uploads/-/system/user/avatar/1/…`). */
export type AvatarModel = 'user' | 'project' | 'group';
const OWNER_COLUMN: Record<AvatarModel, string> = { user: 'user_id', project: 'project_id', group: 'group_id' };

/**
 * The absolute URL of an avatar (`avatar_url`), from EXTERNAL_URL as every other URL of the service
 * (`web_url`, Link headers): GitLab's `/uploads/-/system/<model>/avatar/<id>/<file name>`. Null without one.
 */
export function avatarUrl(
  externalUrl: string,
  model: AvatarModel,
  id: number,
  filename: string | null | undefined,
): string | null {
  return filename ? `${externalUrl}/uploads/-/system/${model}/avatar/${id}/${encodeURIComponent(filename)}` : null;
}

/**
 * Stores (or replaces) the owner's avatar inside the caller's transaction and returns the file name
 * to keep on the owner's row. The file was checked with avatarProblems() first.
 */
export async function saveAvatar(
  em: EntityManager,
  model: AvatarModel,
  ownerId: number,
  file: UploadedFile,
): Promise<string> {
  const contentType = sniffImage(file.data);
  if (!contentType) throw new Error('saveAvatar: the file is not a checked image');
  const filename = sanitizeFilename(file.filename);
  const sha256 = createHash('sha256').update(file.data).digest('hex');
  const column = OWNER_COLUMN[model];
  await sqlRows(
    em,
    `insert into avatars (${column}, filename, content_type, size, sha256, data) values (?, ?, ?, ?, ?, ?)
     on conflict (${column}) do update set filename = excluded.filename, content_type = excluded.content_type,
       size = excluded.size, sha256 = excluded.sha256, data = excluded.data, created_at = now()`,
    [ownerId, filename, contentType, file.size, sha256, file.data],
  );
  return filename;
}

/**
 * Joins an avatar's owner row as `o`, given the avatar's owner column (`a.user_id`, `a.project_id`):
 * the owner's module writes it (users' `joinUser`, projects' `joinProject`).
 */
export type JoinAvatarOwner = (ownerColumn: string) => string;

/**
 * The avatar of `model` `id` named `filename`, if `visible` (an SQL predicate over the owner's row,
 * aliased `o`) lets the caller see its owner; null otherwise (404, as missing).
 */
export async function readAvatar(
  em: EntityManager,
  model: AvatarModel,
  id: number,
  filename: string,
  joinOwner: JoinAvatarOwner,
  visible = 'true',
): Promise<StoredFile | null> {
  const [row] = await sqlRows<{
    filename: string;
    content_type: string;
    sha256: string;
    data: Buffer;
    created_at: Date;
  }>(
    em,
    `select a.filename, a.content_type, a.sha256, a.data, a.created_at from avatars a ${joinOwner(`a.${OWNER_COLUMN[model]}`)}
      where a.${OWNER_COLUMN[model]} = ? and a.filename = ? and ${visible}`,
    [id, filename],
  );
  return row
    ? {
        data: row.data,
        contentType: row.content_type,
        filename: row.filename,
        sha256: row.sha256,
        modifiedAt: new Date(row.created_at),
      }
    : null;
}

/** The stored image of `model` `ownerId`'s avatar, as an upload to store again (a fork copies its source's). */
export async function avatarFileOf(
  em: EntityManager,
  model: AvatarModel,
  ownerId: number,
): Promise<UploadedFile | undefined> {
  const [row] = await sqlRows<{ filename: string; content_type: string; data: Buffer }>(
    em,
    `select filename, content_type, data from avatars where ${OWNER_COLUMN[model]} = ?`,
    [ownerId],
  );
  return row ? new UploadedFile(row.filename, row.content_type, row.data) : undefined;
}

/** The stored avatar of `model` `ownerId`, whatever its name (GET /groups/:id/avatar); null without one. */
export async function storedAvatarOf(
  em: EntityManager,
  model: AvatarModel,
  ownerId: number,
): Promise<StoredFile | null> {
  const [row] = await sqlRows<{
    filename: string;
    content_type: string;
    sha256: string;
    data: Buffer;
    created_at: Date;
  }>(em, `select filename, content_type, sha256, data, created_at from avatars where ${OWNER_COLUMN[model]} = ?`, [
    ownerId,
  ]);
  return row
    ? {
        data: row.data,
        contentType: row.content_type,
        filename: row.filename,
        sha256: row.sha256,
        modifiedAt: new Date(row.created_at),
      }
    : null;
}

/**
 * The file name of the avatar of the row whose id is `ownerId` (an SQL expression), as a scalar subquery
 * for a list's select: the list reads its rows' avatars in its own statement (one probe of the owner
 * column's unique index per listed row) instead of a second round trip.
 */
export function avatarFilenameSql(model: AvatarModel, ownerId: string): string {
  return `(select a.filename from avatars a where a.${OWNER_COLUMN[model]} = ${ownerId})`;
}

/** The avatar file names of these owners (absent without one), in one query: group lists' avatar_url. */
export async function avatarFilenames(
  em: EntityManager,
  model: AvatarModel,
  ownerIds: readonly number[],
): Promise<Map<number, string>> {
  const column = OWNER_COLUMN[model];
  const rows = await sqlRows<{ owner: number; filename: string }>(
    em,
    `select ${column} as owner, filename from avatars where ${column} = any(?::int[])`,
    [`{${ownerIds.map((id) => Math.trunc(Number(id))).join(',')}}`],
  );
  return new Map(rows.map((r) => [Number(r.owner), r.filename]));
}
