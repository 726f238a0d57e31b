import type { RequestCtx } from '../../core/context/request-ctx';
import { forgetCredentials } from '../../core/auth/credential-cache';
import { changes as auditChanges, INSTANCE_SCOPE, recordAudit } from '../../core/events/audit';
import { THROTTLES_CACHE_KEY } from './throttles';
import { camelCase } from '../../core/params/coerce';
import { toVisibility } from '../access';
import { groupIdByFullPath } from '../namespaces';
import { SETTINGS, SETTING_BY_NAME, WEB_PASSWORD_ALIASES, type SettingDef } from './application-settings.catalogue';
import type { SettingValue, SettingValues } from './application-settings.rules';
import {
  loadRow,
  newRunnersToken,
  readRow,
  storeRunnersToken,
  updateColumns,
  type SettingsRow,
} from './application-settings.store';
import { REGISTRATION_TOKEN_SLOT } from './application-settings.secrets';
import { changesOf, checkModel, checkParameters, sentValues, toStored } from './application-settings.validation';

/**
 * Reads and writes of the settings row (spec 4.18), shared by REST and GraphQL. Settings are read
 * per request (one primary-key SELECT, memoized for the request): with several instances on one
 * database every request sees the last committed value (docs/application-settings.md#consistency-across-instances).
 */
const MEMO = 'application-settings';

/** The settings row for this request, created with the defaults on first use. */
export function currentRow(ctx: RequestCtx): Promise<SettingsRow> {
  let row = ctx.memo.get(MEMO) as Promise<SettingsRow> | undefined;
  if (!row) {
    row = loadRow(ctx.em, ctx.secrets, ctx.clock.now());
    ctx.memo.set(MEMO, row);
  }
  return row;
}

/** Current values in stored form (levels as numbers), for the modules the settings take effect in. */
export async function currentSettings(ctx: RequestCtx): Promise<SettingValues> {
  return (await currentRow(ctx)).values;
}

function viewValue(s: SettingDef, values: SettingValues): unknown {
  const v = values[s.name];
  switch (s.kind) {
    case 'visibility':
      return toVisibility(v as number);
    case 'visibilities':
      return v === null ? null : (v as number[]).map(toVisibility);
    case 'decimal':
      return v === null ? null : Number(v);
    case 'derived':
      return values.performance_bar_allowed_group_id !== null;
    default:
      return v;
  }
}

/** The GraphQL object (camelCase) of a row: every setting, legacy aliases, the opened runner token. */
function view(ctx: RequestCtx, row: SettingsRow): Record<string, unknown> {
  const out: Record<string, unknown> = { id: 1, createdAt: row.createdAt, updatedAt: row.updatedAt };
  for (const s of SETTINGS) out[camelCase(s.name)] = viewValue(s, row.values);
  for (const alias of WEB_PASSWORD_ALIASES) out[camelCase(alias)] = row.values.password_authentication_enabled_for_web;
  // GitLab always has one; a value that does not open (another key) is served as null, logged once, so
  // that administrators can still read and change every other setting.
  out.runnersRegistrationToken = ctx.secrets.openOrNull(row.tokenSealed, REGISTRATION_TOKEN_SLOT);
  return out;
}

async function get(ctx: RequestCtx): Promise<Record<string, unknown>> {
  return view(ctx, await currentRow(ctx));
}

/** GitLab stores the performance bar group by id; a path that names no group clears it. */
async function groupIdByPath(ctx: RequestCtx, path: unknown): Promise<number | null> {
  if (typeof path !== 'string' || path.trim() === '') return null;
  return groupIdByFullPath(ctx.em, path.trim());
}

async function storedChanges(ctx: RequestCtx, input: Record<string, unknown>): Promise<Map<SettingDef, SettingValue>> {
  const sent = sentValues(input);
  checkParameters(sent);
  const stored = new Map<SettingDef, SettingValue>();
  const groupSetting = SETTING_BY_NAME.get('performance_bar_allowed_group_id')!;
  for (const [s, v] of changesOf(sent)) {
    if (s.kind === 'groupPath') stored.set(s, await groupIdByPath(ctx, v));
    // performance_bar_enabled=false clears the group; true changes nothing (GitLab 10.x).
    else if (s.kind === 'derived') {
      if (v === false) stored.set(groupSetting, null);
    } else stored.set(s, toStored(s, v));
  }
  return stored;
}

/**
 * PUT /application/settings: parameter checks, then the model rules on the merged stored + sent
 * values under a row lock, then an UPDATE of the sent columns only.
 */
async function update(ctx: RequestCtx, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const changes = await storedChanges(ctx, input);
  await currentRow(ctx); // exists from here on
  const row = await ctx.em.transactional(async (em) => {
    const locked = (await readRow(em, ctx.secrets, true))!;
    const merged: SettingValues = { ...locked.values };
    for (const [s, v] of changes) merged[s.name] = v;
    checkModel(merged, changes.keys());
    if (changes.size > 0) {
      await updateColumns(em, ctx.secrets, changes, ctx.clock.now());
      // One audit event per changed setting, in this transaction; credentials are recorded as filtered.
      await recordAudit(
        ctx,
        em,
        auditChanges(
          { ...INSTANCE_SCOPE, targetType: 'ApplicationSetting', targetId: 1, targetDetails: 'application_settings' },
          [...changes.keys()].map((s) => ({
            name: s.name,
            from: locked.values[s.name],
            to: merged[s.name],
            secret: s.secret,
          })),
        ),
      );
      // Every instance re-reads the throttles when this commits (throttles.ts).
      if ([...changes.keys()].some((s) => s.name.startsWith('throttle_')))
        await ctx.cache.invalidate(em, THROTTLES_CACHE_KEY);
    }
    return (await readRow(em, ctx.secrets))!;
  });
  // The unique-IPs limit is read with each credential (tokens/authenticate.ts).
  if (changes.size > 0) forgetCredentials(ctx.cache);
  ctx.memo.set(MEMO, Promise.resolve(row));
  return view(ctx, row);
}

/** GraphQL resetRunnersRegistrationToken: a new instance token; the old one stops matching. */
async function resetRunnersToken(ctx: RequestCtx): Promise<Record<string, unknown>> {
  await currentRow(ctx);
  await storeRunnersToken(ctx.em, ctx.secrets, newRunnersToken(), ctx.clock.now());
  ctx.memo.delete(MEMO);
  return get(ctx);
}

export const applicationSettingsService = { get, update, resetRunnersToken };
