import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLInputObjectType,
} from 'graphql';
import { snakeCase, type ParamSpec, type ParamType } from '../core/params/coerce';
import type { ParamException, ParamRule, RouteDef } from './route';
import { GRAPHQL_ONLY_EXTENSION } from '../core/graphql/graphql-only';

/**
 * REST parameters derived from the root field's GraphQL arguments when a route is compiled
 * (docs/architecture.md#how-a-route-is-derived): each scalar argument is a parameter, each field of an input
 * object argument is a parameter with an `input.` path; names are the snake_case of the GraphQL
 * names; type, enum values, list-ness, required (non-null) and description come from the schema.
 * The route lists only exceptions (ParamException), and those come first, in their order.
 */
type Source = GraphQLArgument | GraphQLInputField;

/** `custom_attributes[key]=value`: a list of { key, value } input objects is a GitLab hash. */
function isKeyValue(t: GraphQLInputObjectType): boolean {
  return Object.keys(t.getFields()).sort().join(',') === 'key,value';
}

const SCALARS: Record<string, ParamType> = {
  Int: 'int',
  Float: 'float',
  Boolean: 'bool',
  String: 'string',
  ID: 'id',
  DateTimeISO: 'datetime',
  Upload: 'file',
};

function typeOf(type: GraphQLInputType, where: string): Pick<ParamSpec, 'type' | 'values'> {
  const inner = isNonNullType(type) ? type.ofType : type;
  const named = getNamedType(inner);
  const values = isEnumType(named) ? named.getValues().map((v) => v.name.toLowerCase()) : undefined;
  if (isListType(inner)) {
    if (isInputObjectType(named) && isKeyValue(named)) return { type: 'hash' };
    if (isScalarType(named) && (named.name === 'Int' || named.extensions?.restParam === 'int'))
      return { type: 'intArray' };
    return { type: 'stringArray', values };
  }
  if (values) return { type: 'enum', values };
  // A scalar may name its REST type (core/graphql/global-id.ts: `CiRunnerID` arguments stay integers on REST).
  const scalar = isScalarType(named)
    ? (SCALARS[named.name] ?? (named.extensions?.restParam as ParamType | undefined))
    : undefined;
  if (!scalar) throw new Error(`${where}: no REST parameter type for GraphQL type ${String(type)}`);
  return { type: scalar };
}

function specOf(src: Source, arg: string, where: string): ParamSpec {
  return {
    ...typeOf(src.type, where),
    required: isNonNullType(src.type),
    arg,
    description: src.description ?? undefined,
  };
}

/**
 * GraphQL-only arguments, marked `@GraphQLOnly()` (core/graphql/graphql-only.ts): the connection
 * arguments of every list (PageArgs; REST pages by page/per_page and its own keyset) and dashboard
 * filters such as `runners(type, sort)` or `groups(parentPath)` on root fields REST routes use.
 */
const graphqlOnly = (a: GraphQLArgument | GraphQLInputField) => a.extensions?.[GRAPHQL_ONLY_EXTENSION] === true;

function derive(args: readonly GraphQLArgument[], where: string): Map<string, ParamSpec> {
  const out = new Map<string, ParamSpec>();
  for (const a of args) {
    if (graphqlOnly(a)) continue;
    const named = getNamedType(a.type);
    if (isInputObjectType(named) && !isListType(isNonNullType(a.type) ? a.type.ofType : a.type)) {
      for (const f of Object.values(named.getFields()))
        if (!graphqlOnly(f)) out.set(snakeCase(f.name), specOf(f, `${a.name}.${f.name}`, where));
    } else {
      out.set(snakeCase(a.name), specOf(a, a.name, where));
    }
  }
  return out;
}

function applyException(
  name: string,
  ex: ParamException,
  derived: Map<string, ParamSpec>,
  done: Record<string, ParamSpec>,
  where: string,
): ParamSpec {
  const { aliasOf, ...over } = ex;
  if (aliasOf) {
    const base = done[aliasOf] ?? derived.get(aliasOf);
    if (!base) throw new Error(`${where}: ${name} is an alias of unknown parameter ${aliasOf}`);
    return { ...base, required: false, ...over };
  }
  let key = derived.has(name) ? name : undefined;
  if (over.arg && over.arg !== '-') key = [...derived.entries()].find(([, s]) => s.arg === over.arg)?.[0];
  const base = key === undefined ? undefined : derived.get(key);
  if (key !== undefined) derived.delete(key);
  if (!base) {
    if (!over.type)
      throw new Error(`${where}: parameter ${name} matches no GraphQL argument; give it a type and arg '-'`);
    return { arg: '-', ...over, type: over.type };
  }
  return { ...base, ...over };
}

/** The compiled parameter table of a route: exceptions first (declaration order), then the derived rest. */
export function deriveParams(route: RouteDef, args: readonly GraphQLArgument[]): Record<string, ParamSpec> {
  const where = `REST route ${route.method} ${route.path}`;
  const derived = derive(args, where);
  const params: Record<string, ParamSpec> = {};
  for (const [name, ex] of Object.entries(route.params ?? {})) {
    if (ex.omit) {
      if (!derived.delete(name)) throw new Error(`${where}: omits unknown parameter ${name}`);
      continue;
    }
    params[name] = applyException(name, ex, derived, params, where);
  }
  for (const [name, spec] of derived) params[name] ??= spec;
  for (const m of route.path.matchAll(/:(\w+)/g))
    if (!params[m[1]]) throw new Error(`${where}: path parameter ${m[1]} has no GraphQL argument`);
  return params;
}

/** The parameters the `input` argument gives, each alias (a second GitLab name) right after its field. */
function inputParams(route: RouteDef, params: Record<string, ParamSpec>): string[] {
  const aliases = Object.entries(route.params ?? {}).filter(([, ex]) => ex.aliasOf);
  const out: string[] = [];
  for (const [name, spec] of Object.entries(params)) {
    if (!spec.arg?.startsWith('input.') || aliases.some(([a]) => a === name)) continue;
    out.push(name, ...aliases.filter(([, ex]) => ex.aliasOf === name).map(([a]) => a));
  }
  return out;
}

/** The route's cross-parameter rules with their parameter lists resolved and checked against the table. */
export function deriveRules(route: RouteDef, params: Record<string, ParamSpec>): ParamRule[] {
  const where = `REST route ${route.method} ${route.path}`;
  return (route.rules ?? []).map((rule) => {
    const resolved: ParamRule =
      'atLeastOneOf' in rule && rule.atLeastOneOf === 'input'
        ? { ...rule, atLeastOneOf: inputParams(route, params) }
        : rule;
    const names = 'given' in resolved ? [resolved.given, ...resolved.requires] : Object.values(resolved)[0];
    if (!Array.isArray(names) || names.length === 0) throw new Error(`${where}: a rule names no parameter`);
    for (const n of names) if (!params[n]) throw new Error(`${where}: rule names unknown parameter ${n}`);
    return resolved;
  });
}
