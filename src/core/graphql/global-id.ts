import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { INT4_MAX } from '../params/int4';

/**
 * GitLab's global ids (docs.gitlab.com/ee/api/graphql, "Global IDs"): `gid://gitlab/<Class>/<id>`,
 * `<Class>` being GitLab's model class (`Group`, `Ci::Runner`), `<id>` its database id (a Feature's
 * name). The one place that writes and reads them; docs/graphql.md#global-ids-and-lookups.
 */
export const GID_PREFIX = 'gid://gitlab/';

/** GitLab model class names: `Group`, `Ci::Runner`, `Namespaces::UserNamespace`. */
const CLASS = /^[A-Z][A-Za-z0-9]*(?:::[A-Z][A-Za-z0-9]*)*$/;
/** The last segment: a database id, or a name (feature flags: lower-case words and underscores). */
const KEY = /^[A-Za-z0-9_.-]{1,255}$/;

export const globalIdOf = (gidClass: string, key: number | string): string => `${GID_PREFIX}${gidClass}/${key}`;

export interface GlobalId {
  gidClass: string;
  key: string;
}

/** The class and key of a well-formed gid, else null. */
export function parseGlobalId(value: unknown): GlobalId | null {
  if (typeof value !== 'string' || !value.startsWith(GID_PREFIX)) return null;
  const rest = value.slice(GID_PREFIX.length);
  const slash = rest.lastIndexOf('/');
  if (slash < 1) return null;
  const gidClass = rest.slice(0, slash);
  const key = rest.slice(slash + 1);
  return CLASS.test(gidClass) && KEY.test(key) ? { gidClass, key } : null;
}

/** The largest id of a class: int4 (`integer` keys), or 2^53 − 1 for `bigint` keys (exact in JSON and JavaScript). */
export type IdWidth = 'int' | 'bigint';
const idMax = (width: IdWidth): number => (width === 'int' ? INT4_MAX : Number.MAX_SAFE_INTEGER);

/** A gid's key as a database id: digits within the class's id width, else undefined (such an object does not exist). */
export function databaseIdOf(key: string, width: IdWidth = 'int'): number | undefined {
  if (!/^\d{1,16}$/.test(key)) return undefined;
  const n = Number(key);
  return n >= 1 && n <= idMax(width) ? n : undefined;
}

/** The message of a value that is not a gid of `gidClass` (wrong class or malformed). */
export function notAGlobalId(value: unknown, gidClasses: readonly string[]): string {
  const wanted = gidClasses.map((c) => `${GID_PREFIX}${c}/<id>`).join(' or ');
  return `${shown(value)} is not a valid id here: expected ${wanted} or a database id`;
}

/** A value quoted in an error message (long values cut). */
export const shown = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value) : String(value);

const badInput = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

/**
 * A database id given as a GraphQL argument: an Int, a string of digits, or a gid of `gidClass`.
 * Anything else (another class's gid, a malformed value) is BAD_USER_INPUT. REST reads the scalar's
 * `restParam` extension and keeps the integer parameter it had (src/rest/derive-params.ts), so REST
 * never takes global ids (GitLab's REST API does not).
 */
function databaseIdFrom(value: unknown, gidClass: string, width: IdWidth): number {
  const max = idMax(width);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) <= max) return value;
    throw badInput(
      `${gidClass} id cannot represent ${value}: not ${width === 'int' ? 'a 32-bit integer' : 'an integer below 2^53'}`,
    );
  }
  if (typeof value === 'string') {
    if (/^-?\d{1,16}$/.test(value) && Math.abs(Number(value)) <= max) return Number(value);
    const gid = parseGlobalId(value);
    if (gid && gid.gidClass === gidClass) {
      const id = databaseIdOf(gid.key, width);
      if (id !== undefined) return id;
    }
  }
  throw badInput(notAGlobalId(value, [gidClass]));
}

const scalars = new Map<string, GraphQLScalarType>();

/**
 * The argument scalar of `gidClass`'s ids, named as GitLab names its global id types
 * (`Ci::Runner` → `CiRunnerID`); one instance per class (a schema holds one type per name).
 * Resolvers receive the database id as a number. `width` 'bigint' for a class whose ids are a bigint
 * column (audit events): ids up to 2^53 − 1, on REST too (an int64 parameter).
 */
export function idArgOf(gidClass: string, width: IdWidth = 'int'): GraphQLScalarType {
  let scalar = scalars.get(gidClass);
  if (!scalar) {
    scalar = new GraphQLScalarType<number, number>({
      name: `${gidClass.replace(/::/g, '')}ID`,
      description: `A ${gidClass} id: its global id (\`${GID_PREFIX}${gidClass}/1\`) or its database id (\`1\`).`,
      serialize: (v) => v as number,
      parseValue: (v) => databaseIdFrom(v, gidClass, width),
      parseLiteral: (ast: ValueNode) => {
        if (ast.kind === Kind.INT) return databaseIdFrom(Number(ast.value), gidClass, width);
        if (ast.kind === Kind.STRING) return databaseIdFrom(ast.value, gidClass, width);
        throw badInput(`${gidClass} id must be a global id string or an integer`);
      },
      extensions: { restParam: width },
    });
    scalars.set(gidClass, scalar);
  }
  return scalar;
}
