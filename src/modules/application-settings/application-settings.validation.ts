import { ParamError, ValidationError } from '../../core/errors/domain-errors';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { camelCase } from '../../core/params/coerce';
import { VISIBILITY_LEVEL, type Visibility } from '../access/visibility.type';
import { QUEUES_TYPO, SETTINGS, SETTING_BY_NAME, WEB_PASSWORD_ALIASES, type SettingDef } from './application-settings.catalogue';
import type { SettingValue, SettingValues } from './application-settings.rules';

/** What a request sent: setting (or legacy) name → value, only the keys that were given. */
export type Sent = Map<string, unknown>;

const WEB = 'password_authentication_enabled_for_web';
const QUEUES = 'jobqueue_throttling_queues';
const ALL_NAMES = SETTINGS.map((s) => s.name).join(', ');

/** The input object (GraphQL names) → sent values by GitLab name; null counts as not sent. */
export function sentValues(input: Record<string, unknown>): Sent {
  const sent: Sent = new Map();
  for (const name of [...SETTINGS.map((s) => s.name), ...WEB_PASSWORD_ALIASES, QUEUES_TYPO]) {
    const v = input[camelCase(name)];
    if (v !== undefined && v !== null) sent.set(name, v);
  }
  return sent;
}

const provided = (sent: Sent, name: string) => sent.has(name) || (name === QUEUES_TYPO && sent.has(QUEUES));

function valueAllowed(s: SettingDef, v: unknown): boolean {
  const allowed = s.values as readonly unknown[];
  return Array.isArray(v) ? v.every((x) => allowed.includes(x)) : allowed.includes(v);
}

/**
 * Framework-level checks (400 {"error": ...}, GitLab's Grape messages, spec 4.18): allowed values,
 * requirements of a switch sent as true in the same request, the exclusive legacy names of
 * password_authentication_enabled_for_web, and at least one known setting.
 */
export function checkParameters(sent: Sent): void {
  const problems: string[] = [];
  for (const s of SETTINGS) {
    const v = sent.get(s.name);
    if (v === undefined) continue;
    if (s.values && s.kind !== 'visibility' && !valueAllowed(s, v)) problems.push(`${s.name} does not have a valid value`);
    if (v === true) for (const r of s.requires ?? []) if (!provided(sent, r)) problems.push(`${r} is missing`);
  }
  const web = [WEB, ...WEB_PASSWORD_ALIASES].filter((n) => sent.has(n));
  if (web.length > 1) problems.push(`${web.join(', ')} are mutually exclusive`);
  if (sent.size === 0) problems.push(`${ALL_NAMES} are missing, at least one parameter must be provided`);
  if (problems.length) throw new ParamError(problems.join(', '));
}

/** GitLab's DOMAIN_LIST_SEPARATOR: commas, semicolons, whitespace, newlines. */
const splitDomains = (items: string[]) => items.flatMap((x) => x.split(/\s*[,;]\s*|\s+/)).filter((x) => x !== '');

function levelOf(x: string): number | string {
  const byName = VISIBILITY_LEVEL[x.toUpperCase() as Visibility];
  if (byName !== undefined) return byName;
  return ['0', '10', '20'].includes(x.trim()) ? Number(x) : x; // anything else fails the model rule by its own text
}

/** One sent value in stored form (visibility levels, exact decimal text, split lists). */
export function toStored(s: SettingDef, v: unknown): SettingValue {
  switch (s.kind) {
    case 'visibility':
      return VISIBILITY_LEVEL[String(v).toUpperCase() as Visibility];
    case 'visibilities':
      return (v as unknown[]).map((x) => levelOf(String(x))) as number[];
    case 'decimal':
      return String(v);
    case 'strings': {
      const items = (v as unknown[]).map((x) => String(x).trim()).filter((x) => x !== '');
      return s.splitText ? splitDomains(items) : items;
    }
    case 'string':
      return s.name === 'enabled_git_access_protocol' && v === 'nil' ? null : String(v);
    default:
      return v as SettingValue;
  }
}

/** Sent values (legacy names mapped) as stored-form changes; group paths are resolved by the caller. */
export function changesOf(sent: Sent): Map<SettingDef, unknown> {
  const changes = new Map<SettingDef, unknown>();
  for (const [name, v] of sent) {
    const target = (WEB_PASSWORD_ALIASES as readonly string[]).includes(name) ? WEB : name === QUEUES_TYPO ? QUEUES : name;
    if (target !== name && sent.has(target)) continue; // the real name wins over its alias
    changes.set(SETTING_BY_NAME.get(target)!, v);
  }
  return changes;
}

/** Model rules (400 {"message": {...}}) over the merged stored + incoming values. */
export function checkModel(merged: SettingValues): void {
  const bag = new FieldErrorBag();
  for (const s of SETTINGS) {
    for (const rule of s.rules ?? []) for (const h of rule(merged[s.name] ?? null, merged)) bag.add(h.field ?? s.name, h.message);
  }
  if (!bag.empty) throw new ValidationError(bag.errors);
}
