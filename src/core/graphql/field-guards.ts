import {
  Kind,
  defaultFieldResolver,
  isObjectType,
  type FieldNode,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type ValueNode,
} from 'graphql';
import { allowRuleOf, authorize } from '../auth/allow';
import { rejectNulBytes } from '../auth/guards';
import type { RequestCtx } from '../context/request-ctx';

type Field = GraphQLField<unknown, unknown>;
type Resolver = GraphQLFieldResolver<unknown, unknown, Record<string, unknown>>;

/** Root fields: the @Allow permission (401, scope 403, role 403, the REST router's rule), then NUL bytes. */
function guardRoot(field: Field, op: 'query' | 'mutation'): void {
  const rule = allowRuleOf(field, op);
  const resolve: Resolver = field.resolve ?? defaultFieldResolver;
  field.resolve = (root, args, ctx, info) => {
    authorize(ctx as RequestCtx, rule);
    rejectNulBytes(args);
    return resolve(root, args, ctx, info);
  };
}

/** Subscription fields: the same permission, checked when the subscription starts (each event re-authenticates: core/events/live.ts). */
function guardSubscription(field: Field): void {
  const rule = allowRuleOf(field, 'query');
  const subscribe = field.subscribe;
  if (!subscribe) return;
  field.subscribe = (root, args, ctx, info) => {
    authorize(ctx as RequestCtx, rule);
    rejectNulBytes(args);
    return subscribe(root, args, ctx, info);
  };
}

function usesVariables(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(usesVariables);
  if (value.kind === Kind.OBJECT) return value.fields.some((f) => usesVariables(f.value));
  return false;
}

/**
 * Field nodes whose arguments are all literals and were found clean: their arguments are the same on
 * every row and in every request of the (cached) document, so a dashboard's `projects(limit: 50)` on
 * 20 groups, or `sharedWithGroups(limit: 5)` on 200 projects, is checked once.
 */
const cleanLiterals = new WeakSet<FieldNode>();

/** Nested fields that declare arguments: NUL bytes, only when the query writes arguments on the field. */
function guardNested(field: Field): void {
  const resolve: Resolver = field.resolve ?? defaultFieldResolver;
  field.resolve = (root, args, ctx, info) => {
    const node = info.fieldNodes[0];
    if (node.arguments?.length && !cleanLiterals.has(node)) {
      rejectNulBytes(args);
      if (!node.arguments.some((a) => usesVariables(a.value))) cleanLiterals.add(node);
    }
    return resolve(root, args, ctx, info);
  };
}

/**
 * The checks that act on root fields (and on nested fields written with arguments) wrap exactly
 * those fields once, at schema build time: every other field of every row resolves without a
 * middleware chain (type-graphql's global middlewares would wrap all fields in async calls).
 * A root field without @Allow fails here, at start-up and in every test.
 */
export function guardFields(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Map([
    [schema.getQueryType(), 'query'],
    [schema.getMutationType(), 'mutation'],
  ] as const);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const op = roots.get(type);
    const subscription = type === schema.getSubscriptionType();
    for (const field of Object.values(type.getFields())) {
      if (subscription) guardSubscription(field);
      else if (op) guardRoot(field, op);
      else if (field.args.length) guardNested(field);
    }
  }
  return schema;
}
