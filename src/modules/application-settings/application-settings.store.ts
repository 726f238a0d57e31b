import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../../core/crypto/secret-box';
import { pgArray } from '../../core/db/sql';
import { VISIBILITY_LEVEL, type Visibility } from '../access';
import { STORED_SETTINGS, type SettingDef } from './application-settings.catalogue';
import type { SettingValue, SettingValues } from './application-settings.rules';
import {
  REGISTRATION_TOKEN_SLOT,
  SECRET_SETTINGS,
  hasLeftovers,
  sealLeftovers,
  sealedColumn,
  settingSlot,
} from './application-settings.secrets';

/**
 * SQL of the settings row (id 1). Values are in stored form: visibility levels as numbers, decimals
 * as exact decimal text (numeric columns, so 0.3 stays 0.3), lists as arrays; credentials
 * (application-settings.secrets.ts) opened from their sealed columns.
 */
export interface SettingsRow {
  values: SettingValues;
  tokenSealed: string;
  createdAt: Date;
  updatedAt: Date;
}

const quote = (name: string) => `"${name}"`;

/** Raw SQL on the entity manager's transaction when there is one (row lock, update, read-back). */
async function sqlRows<T = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return (await em.getConnection().execute(sql, params, 'all', em.getTransactionContext())) as T[];
}
const iso = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${col}`;
const SELECT = `select ${STORED_SETTINGS.map((s) => quote(s.name)).join(', ')}, ${SECRET_SETTINGS.map((s) => quote(sealedColumn(s))).join(', ')},
  runners_registration_token_sealed, ${iso('created_at')}, ${iso('updated_at')} from application_settings where id = 1`;

function toRow(r: Record<string, unknown>, secrets: SecretBox): SettingsRow {
  const values: SettingValues = {};
  for (const s of STORED_SETTINGS) values[s.name] = r[s.name] as SettingValue;
  // A clear leftover (not sealed yet) is the value until loadRow seals it; an unreadable sealed one is absent.
  for (const s of SECRET_SETTINGS) {
    const sealed = r[sealedColumn(s)];
    if (typeof sealed === 'string') values[s.name] = secrets.openOrNull(sealed, settingSlot(s));
  }
  return {
    values,
    tokenSealed: String(r.runners_registration_token_sealed),
    createdAt: new Date(String(r.created_at)),
    updatedAt: new Date(String(r.updated_at)),
  };
}

/** The catalogue default in stored form. */
export function storedDefault(s: SettingDef): SettingValue {
  if (s.kind === 'visibility') return VISIBILITY_LEVEL[String(s.default).toUpperCase() as Visibility];
  if (s.kind === 'decimal' && s.default !== null) return String(s.default);
  return s.default;
}

/** SQL placeholder and binding for one value (lists go as JSON: knex would expand a bound array). */
function bind(s: SettingDef, value: SettingValue): [string, unknown[]] {
  if (value === null) return ['null', []];
  if (Array.isArray(value)) {
    const cast = s.kind === 'visibilities' ? '::int' : '';
    return [
      `array(select t.x${cast} from jsonb_array_elements_text(?::jsonb) with ordinality t(x, n) order by t.n)`,
      [JSON.stringify(value)],
    ];
  }
  return [s.kind === 'decimal' ? '?::numeric' : '?', [value]];
}

/** A new registration token: 20 URL-safe characters, as GitLab's. */
export function newRunnersToken(): string {
  return crypto.randomBytes(15).toString('base64url');
}

export async function readRow(
  em: EntityManager,
  secrets: SecretBox,
  forUpdate = false,
): Promise<SettingsRow | undefined> {
  const [r] = await sqlRows(em, forUpdate ? `${SELECT} for update` : SELECT);
  return r ? toRow(r, secrets) : undefined;
}

/** Creates the row with the catalogue defaults; concurrent first requests insert it once (primary key id 1). */
export async function ensureRow(em: EntityManager, secrets: SecretBox, now: Date): Promise<void> {
  const token = newRunnersToken();
  const cols: string[] = ['id'];
  const marks: string[] = ['1'];
  const params: unknown[] = [];
  for (const s of STORED_SETTINGS) {
    const [mark, p] = s.secret ? sealedBind(s, storedDefault(s), secrets) : bind(s, storedDefault(s));
    cols.push(quote(s.secret ? sealedColumn(s) : s.name));
    marks.push(mark);
    params.push(...p);
  }
  cols.push('runners_registration_token_sealed', 'runners_registration_token_digest', 'created_at', 'updated_at');
  marks.push('?', '?', '?', '?');
  params.push(secrets.seal(token, REGISTRATION_TOKEN_SLOT), secrets.digest(token), now, now);
  await sqlRows(
    em,
    `insert into application_settings (${cols.join(', ')}) values (${marks.join(', ')}) on conflict (id) do nothing`,
    params,
  );
}

/**
 * The row, created on first use. A row that still holds clear credentials or an unbound token
 * (written before sealing) is sealed here, once: the first read after the upgrade, in whichever
 * instance comes first (application-settings.secrets.ts, `sealLeftovers`).
 */
export async function loadRow(em: EntityManager, secrets: SecretBox, now: Date): Promise<SettingsRow> {
  const [raw] = await sqlRows(em, SELECT);
  if (raw && !hasLeftovers(raw, secrets)) return toRow(raw, secrets);
  if (raw) await sealLeftovers(em, sqlRows, raw, secrets);
  else await ensureRow(em, secrets, now);
  return (await readRow(em, secrets))!;
}

/** A credential's value for its sealed column (null stays null). */
function sealedBind(s: SettingDef, value: SettingValue, secrets: SecretBox): [string, unknown[]] {
  return value === null ? ['null', []] : ['?', [secrets.seal(String(value), settingSlot(s))]];
}

/** Writes only the given columns (concurrent updates of different settings never undo each other). */
export async function updateColumns(
  em: EntityManager,
  secrets: SecretBox,
  changes: Map<SettingDef, SettingValue>,
  now: Date,
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const [s, value] of changes) {
    const [mark, p] = s.secret ? sealedBind(s, value, secrets) : bind(s, value);
    // A credential goes to its sealed column; its clear column (a leftover, if any) is emptied.
    sets.push(s.secret ? `${quote(sealedColumn(s))} = ${mark}, ${quote(s.name)} = null` : `${quote(s.name)} = ${mark}`);
    params.push(...p);
  }
  params.push(now);
  await sqlRows(em, `update application_settings set ${sets.join(', ')}, updated_at = ? where id = 1`, params);
}

export async function storeRunnersToken(
  em: EntityManager,
  secrets: SecretBox,
  token: string,
  now: Date,
): Promise<void> {
  await sqlRows(
    em,
    'update application_settings set runners_registration_token_sealed = ?, runners_registration_token_digest = ?, updated_at = ? where id = 1',
    [secrets.seal(token, REGISTRATION_TOKEN_SLOT), secrets.digest(token), now],
  );
}

/** One primary-key read comparing digests: the same work whatever the token. */
/** `digests`: of the candidate token under the current key and any previous one (a rotation in progress). */
export async function runnersTokenDigestMatches(em: EntityManager, digests: string[]): Promise<boolean> {
  const rows = await sqlRows(
    em,
    'select 1 from application_settings where id = 1 and runners_registration_token_digest = any(?::text[])',
    [pgArray(digests)],
  );
  return rows.length > 0;
}

/** `allow_local_requests_from_system_hooks`: one primary-key read for the system hooks' SSRF rules. */
export async function localRequestsFromSystemHooksAllowed(em: EntityManager): Promise<boolean> {
  const [row] = await sqlRows<{ allowed: boolean }>(
    em,
    'select allow_local_requests_from_system_hooks as allowed from application_settings where id = 1',
  );
  return row?.allowed === true;
}
