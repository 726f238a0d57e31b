import type { EntityManager } from '@mikro-orm/postgresql';
import type { SealedColumn } from '../module/app-module';
import type { SecretBox, SecretSlot } from './secret-box';

/**
 * One secrets key per database (docs/scale-out.md#one-secrets-key-verified). The first instance to start
 * stores its key check (secret-box.ts `keyChecks`: an HMAC of a fixed label, which reveals nothing of
 * the key); every later start of any instance compares its keys with it and refuses to serve when none
 * matches, before it seals or opens anything. Without it, a second instance with a key of its own
 * sealed values the first could not open, and each saw the other's rows as unreadable.
 */
export class SecretsKeyMismatch extends Error {}

export type KeyCheckResult = 'matched' | 'stored';

/** A statement runner on the database (the ORM's connection, or a CLI's). */
type Run = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export const runOn =
  (em: EntityManager): Run =>
  (sql, params = []) =>
    em.getConnection().execute(sql, params, 'all') as Promise<Record<string, unknown>[]>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The sealed values this box cannot open, from a sample of each column (the first `perColumn` rows):
 * a database upgraded from before the key check, or restored next to the wrong key file.
 */
export async function unreadableSample(
  run: Run,
  box: SecretBox,
  columns: readonly SealedColumn[],
  perColumn = 3,
): Promise<SecretSlot[]> {
  const bad: SecretSlot[] = [];
  for (const c of columns) {
    const rows = await run(
      `select (${c.rowKey})::text as row_key, ${ident(c.column)} as sealed from ${ident(c.table)} where ${ident(c.column)} is not null order by 1 limit ${perColumn}`,
    );
    for (const r of rows) {
      const slot = { table: c.table, column: c.column, row: String(r.row_key) };
      try {
        box.open(String(r.sealed), slot);
      } catch {
        bad.push(slot);
      }
    }
  }
  return bad;
}

/**
 * Compares the stored key check with the box's keys (current, then SECRETS_KEY_PREVIOUS), or stores
 * the current key's check when there is none yet and the sealed values already present open.
 * Throws SecretsKeyMismatch (its message says what to do) otherwise. `source` names where this
 * instance's key comes from, for that message. Safe when several instances start at once: the
 * insert is `on conflict do nothing`, and the row read back decides.
 */
export async function verifySecretsKey(
  run: Run,
  box: SecretBox,
  columns: readonly SealedColumn[],
  source: string,
): Promise<KeyCheckResult> {
  const mine = box.keyChecks();
  const stored = async () =>
    (await run('select key_check, created_at from secrets_key_check where id = 1'))[0] as
      { key_check: string; created_at: Date } | undefined;
  let row = await stored();
  let result: KeyCheckResult = 'matched';
  if (!row) {
    const bad = await unreadableSample(run, box, columns);
    if (bad.length > 0) {
      const where = [...new Set(bad.map((b) => `${b.table}.${b.column}`))].join(', ');
      throw new SecretsKeyMismatch(
        `the database holds secrets that ${source} does not open (${where}): this is not the key they were sealed with. ` +
          'Set SECRETS_KEY to the key of the instance that sealed them (with the embedded default, the 64 hex characters in its DATA_DIR/secrets.key), then start again',
      );
    }
    await run('insert into secrets_key_check (id, key_check) values (1, ?) on conflict (id) do nothing', [mine[0]]);
    row = await stored();
    result = 'stored';
  }
  if (!row || !mine.includes(row.key_check.trim())) {
    const since = row ? new Date(row.created_at).toISOString() : 'unknown';
    throw new SecretsKeyMismatch(
      `${source} is not the secrets key of this database (its key check was stored by the first instance on ${since}). ` +
        'Every instance on one database needs the same SECRETS_KEY: copy it from the first instance (with the embedded default, the 64 hex characters in its DATA_DIR/secrets.key) ' +
        'and set SECRETS_KEY here; during a key rotation, the old key goes in SECRETS_KEY_PREVIOUS (docs/scale-out.md)',
    );
  }
  return result === 'stored' ? 'stored' : 'matched';
}

/** Where this process's key comes from, as the mismatch message names it. */
export const keySource = (config: { secretsKey: Buffer | undefined; dataDir: string }): string =>
  config.secretsKey ? 'SECRETS_KEY' : `the key file ${config.dataDir}/secrets.key`;
