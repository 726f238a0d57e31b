import crypto from 'node:crypto';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { SecretBox, SecretSlot } from '../../core/crypto/secret-box';
import { pgArray, sqlRows } from '../../core/db/sql';
import type { Project } from './project.entity';

/**
 * A project's runners_token (registers specific runners for it, spec 4.x "POST /runners"): sealed at
 * rest with a keyed digest for lookups, like runner tokens. Projects without one (rows from before
 * the runners migration) get it on first read by a Master, as GitLab's `ensure_runners_token!` does.
 */

/** Where it is sealed: `projects.runners_token` of the project's row (secret-box.ts, slots). */
export const runnersTokenSlot = (projectId: number): SecretSlot => ({
  table: 'projects',
  column: 'runners_token',
  row: projectId,
});

/**
 * A new token. With the project's id (known before the insert when the caller reserves it:
 * core/crypto/reserve-row-id.ts) it is sealed for that row; without it, in the unbound v1 form,
 * which still opens (kept for the create path until it reserves the id).
 */
export function newRunnersToken(
  secrets: SecretBox,
  projectId?: number,
): { plain: string; sealed: string; digest: string } {
  const plain = crypto.randomBytes(15).toString('base64url');
  return {
    plain,
    sealed: secrets.seal(plain, projectId === undefined ? undefined : runnersTokenSlot(projectId)),
    digest: secrets.digest(plain),
  };
}

/**
 * The token in clear for a caller already allowed to see it, or null when the stored value does not
 * open (another key, or copied from another row): that one field is absent and a warning is logged
 * (secret-box.ts `openOrNull`), a list of projects still answers.
 */
export async function projectRunnersToken(ctx: RequestCtx, project: Project): Promise<string | null> {
  if (project.runnersToken) return ctx.secrets.openOrNull(project.runnersToken, runnersTokenSlot(project.id));
  const t = newRunnersToken(ctx.secrets, project.id);
  // Only one writer wins a race; everyone then reads the stored value.
  await sqlRows(
    ctx.em,
    'update projects set runners_token = ?, runners_token_digest = ? where id = ? and runners_token is null',
    [t.sealed, t.digest, project.id],
  );
  const [row] = await sqlRows<{ runners_token: string }>(ctx.em, 'select runners_token from projects where id = ?', [
    project.id,
  ]);
  project.runnersToken = row.runners_token;
  return ctx.secrets.openOrNull(row.runners_token, runnersTokenSlot(project.id));
}

/** The project whose runners_token this is, if any (index lookup by digest). */
export async function projectIdByRunnersToken(ctx: RequestCtx, token: string): Promise<number | null> {
  const [row] = await sqlRows<{ id: number }>(
    ctx.em,
    'select id from projects where runners_token_digest = any(?::text[])',
    [pgArray(ctx.secrets.digests(token))],
  );
  return row ? Number(row.id) : null;
}

/**
 * A new runners_token for the project (GitLab's `reset_runners_token!`, `runnersRegistrationTokenReset`
 * of a project): the old one stops registering runners. Answers the new token in clear.
 */
export async function resetProjectRunnersToken(ctx: RequestCtx, projectId: number): Promise<string> {
  const t = newRunnersToken(ctx.secrets, projectId);
  await sqlRows(ctx.em, 'update projects set runners_token = ?, runners_token_digest = ? where id = ?', [
    t.sealed,
    t.digest,
    projectId,
  ]);
  return t.plain;
}
