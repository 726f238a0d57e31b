/**
 * Model rules of the settings (spec 4.18; GitLab's ApplicationSetting validations), checked on the
 * merged stored + incoming values. A rule returns its messages; the field it reports under is the
 * setting's own name unless the rule names another (`allowed_key_types`).
 */
export type SettingValue = string | number | boolean | string[] | number[] | null;
export type SettingValues = Record<string, SettingValue>;

export interface RuleHit {
  field?: string;
  message: string;
}

export type Rule = (value: SettingValue, all: SettingValues) => RuleHit[];

const hit = (message: string, field?: string): RuleHit[] => [{ message, field }];
const isBlank = (v: SettingValue) =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
const num = (v: SettingValue) =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;

export const BLANK = "can't be blank";

/** Only when the switch is on (merged value). */
export const when =
  (flag: string, ...rules: Rule[]): Rule =>
  (v, all) =>
    all[flag] === true ? rules.flatMap((r) => r(v, all)) : [];

export const present =
  (message = BLANK): Rule =>
  (v) =>
    isBlank(v) ? hit(message) : [];

/** `present` when the switch is on: `can't be blank` (or GitLab's custom sentence). */
export const presentIf = (flag: string, message = BLANK): Rule => when(flag, present(message));

export const atLeast =
  (min: number): Rule =>
  (v) =>
    v !== null && num(v) < min ? hit(`must be greater than or equal to ${min}`) : [];
export const greaterThan =
  (min: number): Rule =>
  (v) =>
    v !== null && num(v) <= min ? hit(`must be greater than ${min}`) : [];
export const lessThan =
  (max: number): Rule =>
  (v) =>
    v !== null && num(v) >= max ? hit(`must be less than ${max}`) : [];

/** Rails' `numericality: { greater_than_or_equal_to: :other }` reports the other value. */
export const atLeastField =
  (other: string): Rule =>
  (v, all) => {
    const min = num(all[other]);
    return v !== null && !Number.isNaN(min) && num(v) < min ? hit(`must be greater than or equal to ${min}`) : [];
  };

/** Rails' `numericality: { less_than_or_equal_to: :other }` reports the other value. */
export const atMostField =
  (other: string): Rule =>
  (v, all) => {
    const max = num(all[other]);
    return v !== null && !Number.isNaN(max) && num(v) > max ? hit(`must be less than or equal to ${max}`) : [];
  };

/** GitLab's UrlValidator: blank, or an absolute http(s) URL. */
export const url = (): Rule => (v) => {
  if (isBlank(v)) return [];
  try {
    const u = new URL(String(v));
    return u.protocol === 'http:' || u.protocol === 'https:' ? [] : hit('must be a valid URL');
  } catch {
    return hit('must be a valid URL');
  }
};

export const email = (): Rule => (v) => (isBlank(v) || /^[^@\s]+@[^@\s]+$/.test(String(v)) ? [] : hit('is invalid'));

const UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86400,
  day: 86400,
  days: 86400,
  w: 604800,
  wk: 604800,
  week: 604800,
  weeks: 604800,
  mo: 2592000,
  month: 2592000,
  months: 2592000,
  y: 31557600,
  yr: 31557600,
  year: 31557600,
  years: 31557600,
};

/** A ChronicDuration-style duration (`30 days`, `1h 30m`, `3600`), or undefined. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)];
  if (parts.length === 0 || t.replace(/(\d+(?:\.\d+)?)\s*([a-z]+)|,|and|\s/g, '') !== '') return undefined;
  let total = 0;
  for (const [, n, unit] of parts) {
    if (!(unit in UNITS)) return undefined;
    total += Number(n) * UNITS[unit];
  }
  return total;
}

/** GitLab's DurationValidator. */
export const duration = (): Rule => (v) =>
  isBlank(v) || parseDuration(String(v)) !== undefined ? [] : hit('is not a correct duration');

/** One message per offending element. */
export const eachIn =
  (allowed: readonly (string | number)[], message: (x: string) => string): Rule =>
  (v) =>
    Array.isArray(v) ? v.filter((x) => !allowed.includes(x)).map((x) => ({ message: message(String(x)) })) : [];

/** Repository storages configured on this instance (GitLab: gitlab.yml `repositories.storages`). */
export const CONFIGURED_STORAGES = ['default'];

export const storagesConfigured = (): Rule => (v) => {
  const bad = Array.isArray(v) ? v.filter((x) => !CONFIGURED_STORAGES.includes(String(x))) : [];
  return bad.length ? hit(`can't include: ${bad.join(', ')}`) : [];
};

/** GitLab: `allowed_key_types` must not be empty (forbidding every SSH key type is refused). */
export const someKeyTypeAllowed = (): Rule => (_v, all) =>
  ['rsa', 'dsa', 'ecdsa', 'ed25519'].every((t) => all[`${t}_key_restriction`] === -1)
    ? hit(BLANK, 'allowed_key_types')
    : [];
