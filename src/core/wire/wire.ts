import { camelCase } from '../params/coerce';

/**
 * Wire shapes: one declarative description per GitLab JSON form. From it we derive
 *  - the GraphQL selection a REST route executes (only what the response needs),
 *  - the presenter turning that GraphQL result into GitLab's snake_case JSON, in key order,
 *  - the OpenAPI schema of the REST response.
 * So the three can never disagree.
 */
/** `json`: any JSON value, passed through as GraphQL's JSON scalar gives it (e.g. a feature gate's value). */
export type WireScalar = 'integer' | 'number' | 'string' | 'boolean' | 'timestamp' | 'date' | 'json';

interface FieldOpts {
  nullable?: boolean;
  /** Shown in the OpenAPI schema of the response. */
  description?: string;
  /** Key absent (not null) when the value is null: GitLab's conditional entity fields (docs/gitlab-compatibility.md, "Responses"). */
  omitIfNull?: boolean;
  /** Selected only when this boolean variable is true (`@include(if: $var)`). */
  includeIf?: string;
}

export interface ScalarField extends FieldOpts {
  kind: 'scalar';
  from: string;
  type: WireScalar;
  array?: boolean;
  /** GraphQL enum value → GitLab string (PUBLIC → public). */
  lowerEnum?: boolean;
  enumValues?: readonly string[];
  map?: (value: unknown) => unknown;
}

export interface ObjectField extends FieldOpts {
  kind: 'object';
  from: string;
  shape: WireShape;
  array?: boolean;
}

export type WireField = ScalarField | ObjectField;

export interface WireShape {
  name: string;
  fields: Record<string, WireField>;
}

/**
 * A wire shape. A field's GraphQL source defaults to the camelCase of its key
 * (`request_access_enabled: bool()` reads `requestAccessEnabled`); give it only where they differ.
 */
export function shape(name: string, fields: Record<string, WireField>): WireShape {
  const resolved: Record<string, WireField> = {};
  for (const [key, f] of Object.entries(fields)) resolved[key] = f.from ? f : { ...f, from: camelCase(key) };
  return { name, fields: resolved };
}

type Src = string | FieldOpts | undefined;
/** `(from?, opts?)` or `(opts)`: an omitted source is filled in by shape() from the key. */
const args = (a: Src, b: FieldOpts | undefined): [string, FieldOpts] =>
  typeof a === 'string' ? [a, b ?? {}] : ['', a ?? {}];
const scalar =
  (type: WireScalar, extra: Partial<ScalarField> = {}) =>
  (a?: Src, b?: FieldOpts): ScalarField => {
    const [from, o] = args(a, b);
    return { kind: 'scalar', from, type, ...extra, ...o };
  };

export const int = scalar('integer');
export const num = scalar('number');
export const str = scalar('string');
export const bool = scalar('boolean');
export const time = scalar('timestamp');
export const date = scalar('date');
export const json = scalar('json');
export const strList = scalar('string', { array: true });
/** GraphQL enum value → GitLab string: `lowerEnum(VALUES)` or `lowerEnum('from', VALUES)`. */
export function lowerEnum(
  a: string | readonly string[],
  b?: readonly string[] | FieldOpts,
  c: FieldOpts = {},
): ScalarField {
  const [from, values, o] =
    typeof a === 'string' ? [a, b as readonly string[], c] : ['', a, (b as FieldOpts | undefined) ?? {}];
  return { kind: 'scalar', from, type: 'string', lowerEnum: true, enumValues: values, ...o };
}
export const computed = (from: string, type: WireScalar, map: (v: unknown) => unknown): ScalarField => ({
  kind: 'scalar',
  from,
  type,
  map,
});
/** Nested shape: `obj(Shape)` or `obj('from', Shape)`; `list` for arrays of it. */
function nested(array: boolean) {
  return (a: string | WireShape, b?: WireShape | FieldOpts, c: FieldOpts = {}): ObjectField => {
    const [from, s, o] = typeof a === 'string' ? [a, b as WireShape, c] : ['', a, (b as FieldOpts | undefined) ?? {}];
    return { kind: 'object', from, shape: s, ...(array ? { array: true } : {}), ...o };
  };
}
export const obj = nested(false);
export const list = nested(true);

/** GraphQL selection set text for a shape (without the outer braces). */
export function selectionOf(s: WireShape): string {
  const parts = new Map<string, string>();
  for (const f of Object.values(s.fields)) {
    const directive = f.includeIf ? ` @include(if: $${includeVariable(f.includeIf)})` : '';
    const key = f.from + directive;
    if (parts.has(key)) continue;
    parts.set(key, f.kind === 'object' ? `${f.from}${directive} { ${selectionOf(f.shape)} }` : `${f.from}${directive}`);
  }
  return [...parts.values()].join(' ');
}

/** The GraphQL variable behind `includeIf: 'statistics'` (set from the REST param of that name). */
export function includeVariable(param: string): string {
  return `include_${param}`;
}

const includeCache = new WeakMap<WireShape, ReadonlySet<string>>();

/** REST params referenced by `includeIf` anywhere in the shape (computed once per shape: the REST router asks per request). */
export function includeVariables(s: WireShape): ReadonlySet<string> {
  let known = includeCache.get(s);
  if (!known) {
    const acc = new Set<string>();
    collectIncludes(s, acc);
    known = acc;
    includeCache.set(s, known);
  }
  return known;
}

function collectIncludes(s: WireShape, acc: Set<string>): void {
  for (const f of Object.values(s.fields)) {
    if (f.includeIf) acc.add(f.includeIf);
    if (f.kind === 'object') collectIncludes(f.shape, acc);
  }
}

function presentScalar(f: ScalarField, v: unknown): unknown {
  if (f.map) return f.map(v);
  if (v === null || v === undefined) return null;
  if (f.lowerEnum) return Array.isArray(v) ? v.map((x) => String(x).toLowerCase()) : String(v).toLowerCase();
  return v;
}

/**
 * The presenter: GraphQL result object → GitLab JSON with exactly the shape's keys, in order. The
 * REST router writes responses with `writerOf` (below), generated from the same rules; this
 * object-building form is its readable definition, and the unit tests check the writer against it.
 */
export function present(s: WireShape, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(s.fields)) {
    if (!(f.from in data) && f.includeIf) continue; // not requested
    const v = data[f.from];
    if ((v === null || v === undefined) && f.omitIfNull) continue;
    if (f.kind === 'object') {
      if (v === null || v === undefined) out[key] = null;
      else
        out[key] = f.array
          ? (v as Record<string, unknown>[]).map((x) => present(f.shape, x))
          : present(f.shape, v as Record<string, unknown>);
    } else {
      out[key] = presentScalar(f, v);
    }
  }
  return out;
}

function lowerValue(v: unknown): unknown {
  return Array.isArray(v) ? v.map((x) => String(x).toLowerCase()) : String(v).toLowerCase();
}

export type JsonWriter = (data: Record<string, unknown>) => string;
type Presenter = (data: Record<string, unknown>) => Record<string, unknown>;
const presenters = new WeakMap<WireShape, Presenter>();
const writers = new WeakMap<WireShape, JsonWriter>();

/**
 * `present` generated per shape: the same rules compiled into one function that builds
 * the GitLab object as a literal, keys in the shape's order, so V8 gives every row of a shape one
 * hidden class and the native `JSON.stringify` writes it without property lookups by name. Cheaper
 * than concatenating strings, and one flat string instead of a rope of thousands of pieces for
 * `Buffer.byteLength` and the socket write (test/unit/wire.unit.test.ts compares it with `present`).
 */
function presenterOf(s: WireShape): Presenter {
  let p = presenters.get(s);
  if (p) return p;
  const refs: unknown[] = [];
  const ref = (x: unknown) => `r[${refs.push(x) - 1}]`;
  // Nested shapes resolve on first use (a shape may refer to itself).
  const nestedRef = (n: WireShape) => {
    let sub: Presenter | undefined;
    return ref((x: Record<string, unknown>) => (sub ??= presenterOf(n))(x));
  };
  const literal: string[] = [];
  const after: string[] = [];
  for (const [key, f] of Object.entries(s.fields)) {
    const k = JSON.stringify(key);
    const v = `d[${JSON.stringify(f.from)}]`;
    let expr: string;
    if (f.kind === 'object') {
      const sub = nestedRef(f.shape);
      expr = f.array
        ? `(v = ${v}) === null || v === undefined ? null : v.map(${sub})`
        : `(v = ${v}) === null || v === undefined ? null : ${sub}(v)`;
    } else if (f.map) {
      expr = `${ref(f.map)}(${v})`;
    } else if (f.lowerEnum) {
      expr = `(v = ${v}) === null || v === undefined ? null : L(v)`;
    } else {
      expr = `(v = ${v}) === undefined ? null : v`;
    }
    const conditional = f.omitIfNull || f.includeIf;
    if (!conditional && after.length === 0) {
      literal.push(`${k}: ${expr}`);
      continue;
    }
    let line = f.omitIfNull ? `t = ${v}; if (t !== null && t !== undefined) o[${k}] = ${expr};` : `o[${k}] = ${expr};`;
    if (f.includeIf) line = `if (${JSON.stringify(f.from)} in d) { ${line} }`;
    after.push(line);
  }
  const body = `let v, t; const o = { ${literal.join(', ')} }; ${after.join('\n')} return o;`;
  const make = new Function('r', 'L', `return function present_${s.name.replace(/\W/g, '_')}(d) { ${body} };`);
  p = make(refs, lowerValue) as Presenter;
  presenters.set(s, p);
  return p;
}

/** `JSON.stringify(present(shape, data))`, through the generated presenter. */
export function writerOf(s: WireShape): JsonWriter {
  let w = writers.get(s);
  if (!w) {
    const p = presenterOf(s);
    w = (data) => JSON.stringify(p(data));
    writers.set(s, w);
  }
  return w;
}

/** A list of rows of one shape as a JSON array. */
export function writeList(s: WireShape, rows: Record<string, unknown>[]): string {
  const p = presenterOf(s);
  const out = new Array<Record<string, unknown>>(rows.length);
  for (let i = 0; i < rows.length; i += 1) out[i] = p(rows[i]);
  return JSON.stringify(out);
}

export type JsonSchema = Record<string, unknown>;

function scalarSchema(f: ScalarField): JsonSchema {
  const base: JsonSchema =
    f.type === 'timestamp'
      ? { type: 'string', format: 'date-time' }
      : f.type === 'date'
        ? { type: 'string', format: 'date' }
        : f.type === 'json'
          ? { description: 'any JSON value' }
          : { type: f.type };
  if (f.enumValues) base.enum = f.enumValues.map((v) => v.toLowerCase());
  const item = f.nullable ? { ...base, nullable: true } : base;
  return f.array ? { type: 'array', items: base } : item;
}

/** OpenAPI 3.0 schema of a shape, registered under components.schemas by name. */
export function schemaOf(s: WireShape, components: Record<string, JsonSchema>): JsonSchema {
  if (!components[s.name]) {
    components[s.name] = {}; // guards recursion
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, f] of Object.entries(s.fields)) {
      if (f.kind === 'object') {
        const ref = { $ref: `#/components/schemas/${schemaRefName(f.shape, components)}` };
        properties[key] = f.array ? { type: 'array', items: ref } : f.nullable ? { allOf: [ref], nullable: true } : ref;
      } else {
        properties[key] = f.description ? { ...scalarSchema(f), description: f.description } : scalarSchema(f);
      }
      if (!f.omitIfNull && !f.includeIf) required.push(key);
    }
    components[s.name] = { type: 'object', properties, required, additionalProperties: false };
  }
  return { $ref: `#/components/schemas/${s.name}` };
}

function schemaRefName(s: WireShape, components: Record<string, JsonSchema>): string {
  schemaOf(s, components);
  return s.name;
}
