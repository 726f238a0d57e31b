import {
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  defaultFieldResolver,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isNonNullType,
  isScalarType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLFieldResolver,
  type GraphQLInputFieldConfig,
  type GraphQLOutputType,
} from 'graphql';
import { Extensions, getMetadataStorage } from 'type-graphql';
import { payloadErrors } from '../errors/payload-errors';
import { costItemsExtension } from './list-bound';

/**
 * Mutations as GitLab's GraphQL API writes them (docs.gitlab.com/ee/api/graphql/reference/#mutation-type):
 * `<resource><Verb>(input: <Name>Input!): <Name>Payload` where the input object carries every argument
 * plus `clientMutationId`, and the payload is `{ <resource>, errors: [String!]!, clientMutationId }`.
 *
 * Declared once: each module keeps writing one `@Mutation` (`createGroup(input: CreateGroupInput!): Group`,
 * which REST routes name); its payload twin is derived from it when the schema is built: the name by
 * `twinName`, the input type from its arguments (a nested `input:` argument flattened), the payload
 * type from its result type, the resolver by calling the old field's resolver, already guarded by its
 * @Allow (so permissions, scopes, NUL-byte checks, audit events and live events are those of the old
 * field: one resolver, one service). The old field stays, deprecated with `Use <twin>.`.
 *
 * Why a schema transform and not a type-graphql generic: a generic would need a hand-written input
 * class per mutation (about 80) repeating arguments the old field already declares; the transform
 * derives all of them and fails at start-up on a name collision.
 */

const EXTENSION = 'payloadMutation';

export interface PayloadMutationOptions {
  /** The twin's name where the rule does not give GitLab's (`enableProjectRunner` → `runnerAssignToProject`). */
  name?: string;
  /**
   * The payload field carrying the result. Default: the result type's name in camelCase, without a `Ci` prefix (`Group` →
   * `group`). A Boolean result (deletes, removals) has no payload field unless one is named here: as
   * GitLab's `runnerDelete`, success is an empty `errors` list without a top-level error.
   */
  field?: string;
  /**
   * `false`: no twin. For a mutation declared in GitLab's payload form already (`bulkRunnerDelete(input)`:
   * a payload the rule cannot derive), or a REST-only field (`@Internal()`) whose GitLab twin another
   * mutation declares. It is not deprecated.
   */
  twin?: false;
}

/** On a `@Mutation`: only where its payload twin differs from the rule (`@PayloadMutation({ name: 'runnerAssignToProject' })`). */
export function PayloadMutation(opts: PayloadMutationOptions): MethodDecorator {
  return Extensions({ [EXTENSION]: opts });
}

const REQUIRED_IN_PAYLOAD = 'requiredInPayload';

/**
 * On a GraphQL-only argument of a `@Mutation`: the payload twin's input requires it (GitLab's
 * `EnvironmentCreateInput.projectPath: ID!`) while the old field, which REST runs with its own names
 * (`projectId`), keeps it optional.
 */
export function RequiredInPayload(): PropertyDecorator & MethodDecorator {
  return Extensions({ [REQUIRED_IN_PAYLOAD]: true });
}

/** `add…` and `remove…` are GitLab's `Create` and `Delete` (`addGroupMember` → `groupMemberCreate`). */
const VERBS: Record<string, string> = { add: 'Create', remove: 'Delete' };

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * GitLab's naming: resource first, verb last (`createGroup` → `groupCreate`, `updateRunner` →
 * `runnerUpdate`, `stopEnvironment` → `environmentStop`, `resetRunnersRegistrationToken` →
 * `runnersRegistrationTokenReset`).
 */
export function twinName(oldName: string): string {
  const m = /^([a-z]+)([A-Z]\w*)$/.exec(oldName);
  if (!m)
    throw new Error(
      `mutation ${oldName}: cannot derive its payload twin's name (verbResource); name it with @PayloadMutation({ name })`,
    );
  const [, verb, rest] = m;
  return lowerFirst(rest) + (VERBS[verb] ?? upperFirst(verb));
}

const CLIENT_MUTATION_ID = 'clientMutationId';
const CLIENT_MUTATION_ID_DESCRIPTION = 'A unique identifier for the client performing the mutation.';

type Resolver = GraphQLFieldResolver<unknown, unknown, Record<string, unknown>>;
type Source = { outer: string } | { nested: string };

interface Twin {
  name: string;
  config: GraphQLFieldConfig<unknown, unknown>;
  types: [GraphQLInputObjectType, GraphQLObjectType];
}

function buildTwin(oldName: string, old: GraphQLFieldConfig<unknown, unknown>): Twin {
  const opts = (old.extensions?.[EXTENSION] ?? {}) as PayloadMutationOptions;
  const name = opts.name ?? twinName(oldName);
  const typeBase = upperFirst(name);

  // The input object: every argument, the fields of a nested `input:` argument in its place.
  const fields: Record<string, GraphQLInputFieldConfig> = {};
  const sources = new Map<string, Source>();
  let nested: { name: string; required: boolean } | undefined;
  const add = (field: string, config: GraphQLInputFieldConfig, source: Source) => {
    if (field in fields || field === CLIENT_MUTATION_ID)
      throw new Error(`mutation ${oldName}: its payload twin ${name} would have two input fields named ${field}`);
    fields[field] = config;
    sources.set(field, source);
  };
  for (const [arg, config] of Object.entries(old.args ?? {})) {
    const inputType = getNullableType(config.type);
    if (arg === 'input' && isInputObjectType(inputType)) {
      nested = { name: arg, required: isNonNullType(config.type) };
      for (const f of Object.values(inputType.getFields())) {
        add(
          f.name,
          {
            type: f.type,
            description: f.description,
            defaultValue: f.defaultValue,
            deprecationReason: f.deprecationReason,
            extensions: f.extensions,
          },
          { nested: f.name },
        );
      }
    } else {
      const required = config.extensions?.[REQUIRED_IN_PAYLOAD] === true && !isNonNullType(config.type);
      add(
        arg,
        {
          type: required ? new GraphQLNonNull(config.type) : config.type,
          description: config.description,
          defaultValue: config.defaultValue,
          deprecationReason: config.deprecationReason,
          extensions: config.extensions,
        },
        { outer: arg },
      );
    }
  }
  fields[CLIENT_MUTATION_ID] = { type: GraphQLString, description: CLIENT_MUTATION_ID_DESCRIPTION };
  const inputType = new GraphQLInputObjectType({
    name: `${typeBase}Input`,
    description: `Autogenerated input type of ${typeBase}.`,
    fields,
  });
  const required = Object.values(fields).some((f) => isNonNullType(f.type) && f.defaultValue === undefined);

  // The payload: the result under its resource name, errors, clientMutationId.
  const resultType = getNullableType(old.type) as GraphQLOutputType;
  const named = getNamedType(resultType);
  // GitLab names the payload field after the model without its `Ci` namespace (`CiRunner` → `runner`, `CiJob` → `job`).
  const field =
    opts.field ??
    (isScalarType(named) && named.name === 'Boolean' ? undefined : lowerFirst(named.name.replace(/^Ci(?=[A-Z])/, '')));
  const payloadFields: GraphQLFieldConfigMap<unknown, unknown> = {};
  const what = isScalarType(named)
    ? 'What the mutation answered (see its description)'
    : `The ${named.name} the mutation returned`;
  if (field) payloadFields[field] = { type: resultType, description: `${what}; null when it failed.` };
  payloadFields.errors = {
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))),
    description:
      'Errors encountered during execution of the mutation (validation messages such as "Path has already been taken").',
    // Each input field may give a message: the cost walk counts that many (core/graphql/list-bound.ts).
    extensions: costItemsExtension(Object.keys(fields).length),
  };
  payloadFields[CLIENT_MUTATION_ID] = { type: GraphQLString, description: CLIENT_MUTATION_ID_DESCRIPTION };
  const payloadType = new GraphQLObjectType({
    name: `${typeBase}Payload`,
    description: `Autogenerated return type of ${typeBase}.`,
    fields: payloadFields,
  });

  /** The old field's arguments from the twin's input object (only what the caller sent: services patch exactly that). */
  const oldArgs = (input: Record<string, unknown>): Record<string, unknown> => {
    const args: Record<string, unknown> = {};
    let inner: Record<string, unknown> | undefined;
    for (const [key, source] of sources) {
      const value = input[key];
      if (value === undefined) continue;
      if ('outer' in source) args[source.outer] = value;
      else (inner ??= {})[source.nested] = value;
    }
    if (nested && (inner || nested.required)) args[nested.name] = inner ?? {};
    return args;
  };

  const resolveOld = (old.resolve ?? defaultFieldResolver) as Resolver;
  const resolve: Resolver = async (root, args, ctx, info) => {
    const input = (args.input ?? {}) as Record<string, unknown>;
    const clientMutationId = input[CLIENT_MUTATION_ID] ?? null;
    const payload: Record<string, unknown> = { errors: [], clientMutationId };
    try {
      const result = await resolveOld(root, oldArgs(input), ctx, info);
      if (field) payload[field] = result;
    } catch (err) {
      const errors = payloadErrors(err);
      if (!errors) throw err; // not found, forbidden, unauthenticated, unexpected: a top-level error, the field null
      payload.errors = errors;
      if (field) payload[field] = null;
    }
    return payload;
  };

  const { [EXTENSION]: _own, ...extensions } = old.extensions ?? {};
  return {
    name,
    config: {
      type: payloadType,
      description: old.description,
      args: {
        input: {
          type: required ? new GraphQLNonNull(inputType) : inputType,
          description: `Parameters for ${typeBase}.`,
        },
      },
      resolve,
      extensions,
    },
    types: [inputType, payloadType],
  };
}

/**
 * A twin passes its own `info` (a payload selection, `groupCreate { group { … } errors }`) to the old
 * resolver, so a mutation resolver may not read `@Info()`: refused at start-up rather than misread.
 */
function refuseInfoInMutations(schema: GraphQLSchema): void {
  const names = new Set(Object.keys(schema.getMutationType()?.getFields() ?? {}));
  const reading = getMetadataStorage().mutations.filter(
    (m) => names.has(m.schemaName) && m.params?.some((p) => p.kind === 'info'),
  );
  if (reading.length)
    throw new Error(
      `mutations reading @Info() (their payload twins pass another selection; core/graphql/mutation-payloads.ts): ${reading.map((m) => m.schemaName).join(', ')}`,
    );
}

/**
 * The schema with a payload twin beside every mutation (the old name deprecated: `Use <twin>.`). Run on
 * the finished schema, after the root-field guards: a twin calls its old field's guarded resolver, so
 * the permission check runs once, in the same code, and the twin needs no guard of its own.
 */
export function withMutationPayloads(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  if (!mutation) return schema;
  refuseInfoInMutations(schema);
  const config = schema.toConfig();
  const taken = new Set(config.types.map((t) => t.name));
  const oldFields = mutation.toConfig().fields;
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  const types: (GraphQLInputObjectType | GraphQLObjectType)[] = [];
  for (const [oldName, old] of Object.entries(oldFields)) {
    if ((old.extensions?.[EXTENSION] as PayloadMutationOptions | undefined)?.twin === false) {
      if (oldName in fields) throw new Error(`mutation ${oldName} is already the payload twin of another mutation`);
      fields[oldName] = old;
      continue;
    }
    const twin = buildTwin(oldName, old);
    if (twin.name in oldFields || twin.name in fields)
      throw new Error(`mutation ${oldName}: its payload twin ${twin.name} is already a mutation`);
    for (const t of twin.types) {
      if (taken.has(t.name)) throw new Error(`mutation ${oldName}: type ${t.name} of its payload twin already exists`);
      taken.add(t.name);
      types.push(t);
    }
    fields[oldName] = { ...old, deprecationReason: old.deprecationReason ?? `Use ${twin.name}.` };
    fields[twin.name] = twin.config;
  }
  const newMutation = new GraphQLObjectType({ ...mutation.toConfig(), fields });
  return new GraphQLSchema({
    ...config,
    mutation: newMutation,
    types: [...config.types.filter((t) => t !== mutation), ...types],
  });
}
