import { ParamError, ValidationError } from '../../core/errors/domain-errors';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { camelCase } from '../../core/params/coerce';
import { VISIBILITY_LEVEL, type Visibility } from '../access';
import {
  QUEUES_TYPO,
  SETTINGS,
  SETTING_BY_NAME,
  SETTING_LIST_MAX,
  WEB_PASSWORD_ALIASES,
  type SettingDef,
} from './application-settings.catalogue';
import type { SettingValue, SettingValues } from './application-settings.rules';
import { ruleProblems } from '../../rest/param-rules';
import type { ParamRule } from '../../rest/route';
import { longerThan } from '../../core/validation/char-length';

/** What a request sent: setting (or legacy) name → value, only the keys that were given. */
export type Sent = Map<string, unknown>;

const WEB = 'password_authentication_enabled_for_web';
const QUEUES = 'jobqueue_throttling_queues';

/** The input object (GraphQL names) → sent values by GitLab name; null counts as not sent. */
export function sentValues(input: Record<string, unknown>): Sent {
  const sent: Sent = new Map();
  for (const name of [...SETTINGS.map((s) => s.name), ...WEB_PASSWORD_ALIASES, QUEUES_TYPO]) {
    const v = input[camelCase(name)];
    if (v !== undefined && v !== null) sent.set(name, v);
  }
  return sent;
}

function valueAllowed(s: SettingDef, v: unknown): boolean {
  const allowed = s.values as readonly unknown[];
  return Array.isArray(v) ? v.every((x) => allowed.includes(x)) : allowed.includes(v);
}

/**
 * Grape's parameter rules of PUT /application/settings, from the catalogue: each switch sent true
 * requires its parameters (GitLab's order), the three names of web password authentication are
 * mutually exclusive, and at least one setting must be sent. The REST route declares them; the
 * service checks them for GraphQL with the same function.
 */
const GIVEN_ORDER = [
  'domain_blacklist_enabled',
  'require_two_factor_authentication',
  'shared_runners_enabled',
  'metrics_enabled',
  'jobqueue_throttling_enabled',
  'captcha_enabled',
  'spamfilter_enabled',
  'errortracker_enabled',
  'clientside_errortracker_enabled',
  'devenv_enabled',
  'diagram_enabled',
  'housekeeping_enabled',
];
/** A switch GitLab does not have goes last, as a `given` appended at the end of the params block. */
const givenRank = (name: string) => (GIVEN_ORDER.includes(name) ? GIVEN_ORDER.indexOf(name) : GIVEN_ORDER.length);

export const SETTINGS_RULES: ParamRule[] = [
  // In the order GitLab 10.x declares its `given` blocks, which is the order of its messages.
  ...SETTINGS.filter((s) => s.requires)
    .sort((a, b) => givenRank(a.name) - givenRank(b.name))
    .map((s) => ({ given: s.name, requires: [...s.requires!], aliases: { [QUEUES]: [QUEUES_TYPO] } })),
  { mutuallyExclusive: [WEB, ...WEB_PASSWORD_ALIASES] },
  { atLeastOneOf: SETTINGS.map((s) => s.name) },
];

/** Framework-level checks (400 {"error": ...}): allowed values, then the parameter rules. */
export function checkParameters(sent: Sent): void {
  const problems: string[] = [];
  for (const s of SETTINGS) {
    const v = sent.get(s.name);
    if (v !== undefined && s.values && s.kind !== 'visibility' && !valueAllowed(s, v))
      problems.push(`${s.name} does not have a valid value`);
  }
  problems.push(...ruleProblems(SETTINGS_RULES, Object.fromEntries(sent)));
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
    const target = (WEB_PASSWORD_ALIASES as readonly string[]).includes(name)
      ? WEB
      : name === QUEUES_TYPO
        ? QUEUES
        : name;
    if (target !== name && sent.has(target)) continue; // the real name wins over its alias
    changes.set(SETTING_BY_NAME.get(target)!, v);
  }
  return changes;
}

/** True when a string, or an entry of a list, has more than `max` characters as GitLab counts them (code points: an emoji is one). */
function tooLong(v: unknown, max: number): boolean {
  const over = (x: unknown) => typeof x === 'string' && longerThan(x, max);
  return Array.isArray(v) ? v.some(over) : over(v);
}

/**
 * Model rules (400 {"message": {...}}) over the merged stored + incoming values; lengths over the
 * values sent only (a longer value stored before the bound does not block other changes).
 */
export function checkModel(merged: SettingValues, changed: Iterable<SettingDef>): void {
  const bag = new FieldErrorBag();
  for (const s of changed) {
    const v = merged[s.name];
    if (s.kind === 'strings' && Array.isArray(v) && v.length > SETTING_LIST_MAX)
      bag.add(s.name, `has too many entries (maximum is ${SETTING_LIST_MAX})`);
    else if (s.maxLength && tooLong(v, s.maxLength)) {
      bag.add(
        s.name,
        s.kind === 'strings'
          ? `has an entry that is too long (maximum is ${s.maxLength} characters)`
          : `is too long (maximum is ${s.maxLength} characters)`,
      );
    }
  }
  for (const s of SETTINGS) {
    for (const rule of s.rules ?? [])
      for (const h of rule(merged[s.name] ?? null, merged)) bag.add(h.field ?? s.name, h.message);
  }
  if (!bag.empty) throw new ValidationError(bag.errors);
}
