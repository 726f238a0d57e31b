import type { AppEnv } from '../context/request-ctx';

/** A setting the process cannot start with (main.ts prints it and exits with code 2). */
export class ConfigError extends Error {}

/**
 * One environment variable a module (or core) reads: its name and its parser, declared once. Every
 * declared setting is checked when the app is built (`checkEnvSettings`: a wrong value stops the start
 * with its name and what it takes, as src/config.ts does for core's own variables) and read through the
 * same parser afterwards (`readSetting`). docs/configuration.md#environment-variables lists them all.
 */
export interface EnvSetting<T> {
  name: string;
  /** Unset or empty → the default; otherwise the parsed value, or a throw whose message says what it takes. */
  parse(raw: string | undefined): T;
}

/** A whole number > 0 (durations in ms, counts). */
export function positiveIntSetting(name: string, fallback: number): EnvSetting<number> {
  return {
    name,
    parse(raw) {
      const value = (raw ?? '').trim();
      if (value === '') return fallback;
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) === 0) {
        throw new ConfigError(`${name} must be a whole number greater than 0, got "${raw}"`);
      }
      return Number(value);
    },
  };
}

const ON = new Set(['true', '1', 'yes', 'on']);
const OFF = new Set(['false', '0', 'no', 'off']);

/** true/false (also 1/0, yes/no, on/off, any case). */
export function flagSetting(name: string, fallback: boolean): EnvSetting<boolean> {
  return {
    name,
    parse(raw) {
      const value = (raw ?? '').trim().toLowerCase();
      if (value === '') return fallback;
      if (ON.has(value)) return true;
      if (OFF.has(value)) return false;
      throw new ConfigError(`${name} must be true or false (or 1/0, yes/no, on/off), got "${raw}"`);
    },
  };
}

/** Free text, trimmed (undefined when unset or empty); `parse` turns it into the value or throws what it takes. */
export function textSetting<T = string>(name: string, parse: (value: string | undefined) => T): EnvSetting<T> {
  return {
    name,
    parse(raw) {
      const value = (raw ?? '').trim();
      try {
        return parse(value === '' ? undefined : value);
      } catch (e) {
        throw e instanceof ConfigError ? e : new ConfigError(`${name}: ${(e as Error).message}`);
      }
    },
  };
}

/** Parsed values per environment object (one per app): a setting is parsed once, not per request. */
const parsed = new WeakMap<AppEnv, Map<EnvSetting<unknown>, unknown>>();

/** The setting's value in `env` (a value `checkEnvSettings` accepted; an invalid one throws ConfigError). */
export function readSetting<T>(env: AppEnv, setting: EnvSetting<T>): T {
  let values = parsed.get(env);
  if (!values) {
    values = new Map();
    parsed.set(env, values);
  }
  if (values.has(setting as EnvSetting<unknown>)) return values.get(setting as EnvSetting<unknown>) as T;
  const value = setting.parse(env[setting.name]);
  values.set(setting as EnvSetting<unknown>, value);
  return value;
}

/** Checks every declared setting in `env`; throws one ConfigError naming each wrong value. */
export function checkEnvSettings(settings: readonly EnvSetting<unknown>[], env: AppEnv): void {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const s of settings) {
    if (seen.has(s.name)) throw new Error(`environment setting ${s.name} is declared twice`);
    seen.add(s.name);
    try {
      readSetting(env, s);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      problems.push(e.message);
    }
  }
  if (problems.length) throw new ConfigError(problems.join('; '));
}
