import crypto from 'node:crypto';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { SecretBox } from '../../core/crypto/secret-box';
import { sqlRows } from '../../core/db/sql';
import type { Project } from './project.entity';

/**
 * A project's runners_token (registers specific runners for it, spec 4.x "POST /runners"): sealed at
 * rest with a keyed digest for lookups, like runner tokens. Projects without one (rows from before
 * the runners migration) get it on first read by a Master, as GitLab's `ensure_runners_token!` does.
 */
export function newRunnersToken(secrets: SecretBox): { plain: string; sealed: string; digest: string } {
  const plain = crypto.randomBytes(15).toString('base64url');
  return { plain, sealed: secrets.seal(plain), digest: secrets.digest(plain) };
}

export async function projectRunnersToken(ctx: RequestCtx, project: Project): Promise<string> {
  if (project.runnersToken) return ctx.secrets.open(project.runnersToken);
  const t = newRunnersToken(ctx.secrets);
  // Only one writer wins a race; everyone then reads the stored value.
  await sqlRows(ctx.em, 'update projects set runners_token = ?, runners_token_digest = ? where id = ? and runners_token is null', [t.sealed, t.digest, project.id]);
  const [row] = await sqlRows<{ runners_token: string }>(ctx.em, 'select runners_token from projects where id = ?', [project.id]);
  project.runnersToken = row.runners_token;
  return ctx.secrets.open(row.runners_token);
}

/** The project whose runners_token this is, if any (index lookup by digest). */
export async function projectIdByRunnersToken(ctx: RequestCtx, token: string): Promise<number | null> {
  const [row] = await sqlRows<{ id: number }>(ctx.em, 'select id from projects where runners_token_digest = ?', [ctx.secrets.digest(token)]);
  return row ? Number(row.id) : null;
}
