import { NotFoundError, ParamError } from '../errors/domain-errors';
import { UploadedFile } from '../http/uploaded-file';
import { GID_PREFIX } from '../graphql/global-id';
import { INT4_MAX } from './int4';

export { INT4_MAX };

/**
 * GitLab (Grape) parameter coercion, shared by every REST route (docs/gitlab-compatibility.md, "Parameters").
 * Problems become 400 {"error": "<name> is invalid" | "<name> does not have a valid value"}.
 */
export type ParamType =
  | 'int'
  /** An id of a bigint column (audit events): an integer up to 2^53 − 1, exact in JSON and JavaScript. */
  | 'bigint'
  | 'float'
  | 'bool'
  | 'string'
  | 'intArray'
  | 'stringArray'
  | 'hash'
  | 'datetime'
  | 'date'
  | 'id'
  | 'enum'
  /** A multipart file part (Grape `type: File`): anything else, a string included, is invalid. */
  | 'file';

export interface ParamSpec {
  type: ParamType;
  required?: boolean;
  /** Allowed values of an enum, a string list or an int (GitLab's `values:`). */
  values?: readonly (string | number)[];
  /** GraphQL variable path, e.g. 'input.name'; '-' for a REST-only parameter not sent to GraphQL. */
  arg?: string;
  /** For integer path ids: a value beyond int4 is this resource's 404, not a 400. */
  notFound?: string;
  /** Hashes: leave out nested values (objects, lists, booleans) instead of refusing the parameter. */
  scalarEntriesOnly?: boolean;
  description?: string;
  /** Grape's `absence` validator: sending the parameter at all is a 400 "<name> <absence>". */
  absence?: string;
  /** Grape's `allow_blank: false`: a blank string is a 400 "<name> is empty" (the value still counts as sent). */
  allowBlank?: false;
  /**
   * What REST passes when the parameter is absent, where GitLab's REST default differs from the GraphQL
   * argument's default (`groups(allAvailable)`: true in GitLab's GraphQL API, false in its REST API).
   */
  restDefault?: unknown;
}

const TRUE = new Set(['true', '1', 't', 'yes', 'y', 'on']);
const FALSE = new Set(['false', '0', 'f', 'no', 'n', 'off']);

/** A real calendar date `YYYY-MM-DD` (JavaScript would roll 2020-02-30 over; PostgreSQL refuses it). */
export function isIsoDate(v: unknown): v is string {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** NUL, or a UTF-16 surrogate without its pair (not encodable as UTF-8; json/jsonb refuse `\ud800`). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * PostgreSQL text cannot hold NUL, nor json a lone surrogate; such input is a client error (400),
 * never a driver 500. Every string parameter of both surfaces goes through this check.
 */
export function hasNulByte(v: string): boolean {
  return UNSTORABLE.test(v);
}

function toInt(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

function asList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === 'object') return Object.values(v as Record<string, unknown>);
  if (typeof v === 'string') return v === '' ? [] : v.split(',');
  return [v];
}

export function coerceParam(name: string, spec: ParamSpec, raw: unknown): unknown {
  switch (spec.type) {
    case 'string':
    case 'id': {
      // A declared file part on a text parameter (a PEM certificate) is its text.
      if (raw instanceof UploadedFile) raw = raw.text();
      if (typeof raw === 'string') {
        if (hasNulByte(raw)) throw ParamError.invalid(name);
        // REST ids are GitLab's REST ids: a `gid://…` value is looked up as the path it spells (404, as
        // GitLab), never read as a GraphQL global id (core/params/parse-id-or-path.ts strips the slash).
        if (spec.type === 'id' && raw.startsWith(GID_PREFIX)) return `/${raw}`;
        return raw;
      }
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
      throw ParamError.invalid(name);
    }
    case 'int':
    case 'bigint': {
      const n = toInt(raw);
      if (n === undefined) throw ParamError.invalid(name);
      if (Math.abs(n) > (spec.type === 'int' ? INT4_MAX : Number.MAX_SAFE_INTEGER)) {
        if (spec.notFound !== undefined) throw new NotFoundError(spec.notFound || undefined);
        throw ParamError.invalid(name);
      }
      if (spec.values && !spec.values.includes(n)) throw ParamError.notInSet(name);
      return n;
    }
    case 'float': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (!Number.isFinite(n)) throw ParamError.invalid(name);
      return n;
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      const s = String(raw).toLowerCase();
      if (TRUE.has(s)) return true;
      if (FALSE.has(s)) return false;
      throw ParamError.invalid(name);
    }
    case 'intArray':
      return asList(raw).map((item) => {
        const n = toInt(item);
        if (n === undefined || Math.abs(n) > INT4_MAX) throw ParamError.invalid(name);
        return n;
      });
    case 'stringArray': {
      const items = asList(raw)
        .map((item) => {
          if ((typeof item !== 'string' && typeof item !== 'number') || hasNulByte(String(item)))
            throw ParamError.invalid(name);
          return String(item).trim();
        })
        .filter((s) => s !== '');
      if (spec.values && items.some((i) => !spec.values!.includes(i))) throw ParamError.notInSet(name);
      return spec.values ? items.map((i) => i.toUpperCase()) : items;
    }
    case 'hash': {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw ParamError.invalid(name);
      const entries = Object.entries(raw as Record<string, unknown>);
      const kept = spec.scalarEntriesOnly
        ? entries.filter(([, v]) => typeof v === 'string' || typeof v === 'number')
        : entries;
      return kept.map(([key, value]) => {
        if ((typeof value !== 'string' && typeof value !== 'number') || hasNulByte(key) || hasNulByte(String(value)))
          throw ParamError.invalid(name);
        return { key, value: String(value) };
      });
    }
    case 'datetime': {
      if (typeof raw !== 'string' || raw.trim() === '' || hasNulByte(raw)) throw ParamError.invalid(name);
      const t = Date.parse(raw);
      if (Number.isNaN(t)) throw ParamError.invalid(name);
      return new Date(t).toISOString();
    }
    case 'date': {
      if (!isIsoDate(raw)) throw ParamError.invalid(name);
      return raw;
    }
    case 'enum': {
      if (typeof raw !== 'string' || !(spec.values ?? []).includes(raw)) throw ParamError.notInSet(name);
      return raw.toUpperCase();
    }
    case 'file': {
      if (!(raw instanceof UploadedFile)) throw ParamError.invalid(name);
      return raw;
    }
  }
}

export function camelCase(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** GraphQL name → GitLab parameter name: `requestAccessEnabled` → `request_access_enabled`. */
export function snakeCase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Services' check for optional date inputs (both surfaces): 400 "<name> is invalid". */
export function assertOptionalDate(name: string, value: string | null | undefined): void {
  if (value !== undefined && value !== null && !isIsoDate(value)) throw ParamError.invalid(name);
}
