import {
  Kind,
  TypeInfo,
  execute,
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  parse,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery } from '../core/graphql/jit';
import { executionView } from '../core/graphql/views';
import type { RequestCtx } from '../core/context/request-ctx';
import { includeVariables, includeVariable, selectionOf, type WireShape } from '../core/wire/wire';
import { allowRuleOf, type AllowRule } from '../core/auth/allow';
import type { ParamSpec } from '../core/params/coerce';
import { deriveParams, deriveRules } from './derive-params';
import type { ParamRule, RouteDef } from './route';

export interface CompiledRoute {
  route: RouteDef;
  field: GraphQLField<unknown, unknown>;
  fieldName: string;
  /** One executable document per possible wire shape (by shape name; '' when the route has none). */
  documents: Map<string, DocumentNode>;
  /** The same documents compiled once (graphql-jit), by shape name. */
  runners: Map<string, RunDocument>;
  /** Root-field arguments that are non-null input objects (filled with {} when no param targets them). */
  requiredInputs: string[];
  /** The root field's @Allow: checked before parameter validation (GitLab's route-level filters). */
  allow: AllowRule;
  /** The full parameter table: derived from the field's arguments plus the route's exceptions. */
  params: Record<string, ParamSpec>;
  /** The route's cross-parameter rules, their lists resolved (`atLeastOneOf: 'input'`). */
  rules: ParamRule[];
  /** Success status unless `route.status` computes one: fixed, or POST 201, DELETE 204, else 200. */
  status: number;
}

export type RunDocument = (
  ctx: RequestCtx,
  variables: Record<string, unknown>,
) => Promise<ExecutionResult> | ExecutionResult;

/**
 * A route's fixed document compiled once with graphql-jit: the same schema,
 * resolvers and services as graphql-js `execute`, without re-walking the document per request and
 * per row. What graphql-jit cannot compile runs through `execute`.
 */
export function compileRunner(schema: GraphQLSchema, document: DocumentNode): RunDocument {
  // Compiled on the route's first call (then kept): routes nobody calls cost no generated code.
  let run: RunDocument | undefined;
  return (ctx, variables) => {
    if (!run) {
      // Plain reads where a resolver only answers a row property (a Node's `databaseId`: the id REST shows).
      const compiled = compileQuery(executionView(schema), document);
      run = isCompiledQuery(compiled)
        ? (c, v) => compiled.query(undefined, c, v)
        : (c, v) => execute({ schema, document, variableValues: v, contextValue: c });
    }
    return run(ctx, variables);
  };
}

function rootField(
  schema: GraphQLSchema,
  route: RouteDef,
): { fieldName: string; field: GraphQLField<unknown, unknown> } {
  const [op, fieldName] = route.field.split('.');
  const type = op === 'Mutation' ? schema.getMutationType() : schema.getQueryType();
  const field = type?.getFields()[fieldName];
  if (!field) throw new Error(`REST route ${route.method} ${route.path}: no root field ${route.field}`);
  return { fieldName, field };
}

/** The selection under the root field: page wrapper, payload unwrap, or the shape itself. */
function selectionFor(field: GraphQLField<unknown, unknown>, route: RouteDef, shape: WireShape | undefined): string {
  if (!shape) return '';
  const inner = selectionOf(shape);
  if (route.paginated) return `{ nodes { ${inner} } total page perPage totalPages hasNextPage pagination nextCursor }`;
  if (route.unwrap) {
    const payload = getNamedType(field.type);
    const scalars = isObjectType(payload)
      ? Object.values(payload.getFields())
          .filter((f) => isLeafType(getNamedType(f.type)))
          .map((f) => f.name)
      : [];
    return `{ ${route.unwrap} { ${inner} } ${scalars.join(' ')} }`;
  }
  return `{ ${inner} }`;
}

/**
 * REST keeps GitLab's numeric ids: wherever a wire shape selects `id` on a type implementing Node
 * (whose `id` is the GraphQL global id, core/graphql/node.ts), the document selects `id: databaseId`.
 * One rule for every shape and nesting level (a project's `namespace.id`, a job's `runner.id`).
 */
function numericIds(schema: GraphQLSchema, doc: DocumentNode): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  return visit(
    doc,
    visitWithTypeInfo(typeInfo, {
      Field(node: FieldNode): FieldNode | undefined {
        const parent = typeInfo.getParentType();
        if (
          node.name.value !== 'id' ||
          node.alias ||
          !isObjectType(parent) ||
          !parent.getInterfaces().some((i) => i.name === 'Node')
        )
          return undefined;
        if (!parent.getFields().databaseId)
          throw new Error(`${parent.name} implements Node without databaseId: a REST shape cannot select its id`);
        return { ...node, alias: { kind: Kind.NAME, value: 'id' }, name: { kind: Kind.NAME, value: 'databaseId' } };
      },
    }),
  );
}

function buildDocument(
  schema: GraphQLSchema,
  route: RouteDef,
  fieldName: string,
  field: GraphQLField<unknown, unknown>,
  shape?: WireShape,
): DocumentNode {
  const op = route.field.startsWith('Mutation.') ? 'mutation' : 'query';
  const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`);
  for (const param of shape ? includeVariables(shape) : []) defs.push(`$${includeVariable(param)}: Boolean! = false`);
  const args = field.args.map((a) => `${a.name}: $${a.name}`);
  const text = `${op} ${fieldName}_rest${defs.length ? `(${defs.join(', ')})` : ''} { ${fieldName}${args.length ? `(${args.join(', ')})` : ''} ${selectionFor(field, route, shape)} }`;
  return numericIds(schema, parse(text));
}

function assertValid(schema: GraphQLSchema, route: RouteDef, doc: DocumentNode): void {
  const errors = validate(schema, doc);
  if (errors.length)
    throw new Error(
      `REST route ${route.method} ${route.path} does not match the schema: ${errors.map((e) => e.message).join('; ')}`,
    );
}

/**
 * Validates the routes' documents in one pass: one document holding every operation (renamed apart),
 * which is valid exactly when each of them is, since they are single operations without fragment
 * definitions. Most of a validation's cost is per document (its context and rule visitors), not per
 * node. When that document has an error, each one is validated on its own to name the route.
 */
function assertAllValid(schema: GraphQLSchema, compiled: CompiledRoute[]): void {
  const all = compiled.flatMap((c) => [...c.documents.values()].map((doc) => ({ route: c.route, doc })));
  const operations = all.flatMap(({ doc }) => doc.definitions);
  if (operations.every((d) => d.kind === Kind.OPERATION_DEFINITION)) {
    const merged: DocumentNode = {
      kind: Kind.DOCUMENT,
      definitions: (operations as OperationDefinitionNode[]).map((d, i) => ({
        ...d,
        name: { kind: Kind.NAME, value: `route_${i}` },
      })),
    };
    if (validate(schema, merged).length === 0) return;
  }
  for (const { route, doc } of all) assertValid(schema, route, doc);
}

/** Compiles every route once at startup; a schema change that breaks a route fails at boot (and in tests). */
export function compileRoutes(schema: GraphQLSchema, routes: readonly RouteDef[]): CompiledRoute[] {
  const compiled = routes.map((route) => compileUnchecked(schema, route));
  assertAllValid(schema, compiled);
  return compiled;
}

/** One route, compiled and checked against the schema on its own. */
export function compileRoute(schema: GraphQLSchema, route: RouteDef): CompiledRoute {
  return compileRoutes(schema, [route])[0];
}

function compileUnchecked(schema: GraphQLSchema, route: RouteDef): CompiledRoute {
  const { fieldName, field } = rootField(schema, route);
  const shapes = route.shapes ?? (route.shape && typeof route.shape !== 'function' ? [route.shape] : []);
  if (typeof route.shape === 'function' && !route.shapes)
    throw new Error(`REST route ${route.path}: a computed shape needs \`shapes\``);
  const documents = new Map<string, DocumentNode>();
  if (shapes.length === 0) documents.set('', buildDocument(schema, route, fieldName, field));
  for (const s of shapes) documents.set(s.name, buildDocument(schema, route, fieldName, field, s));
  const runners = new Map([...documents].map(([name, doc]) => [name, compileRunner(schema, doc)] as const));
  const requiredInputs = field.args
    .filter((a) => isNonNullType(a.type) && !isLeafType(getNamedType(a.type)))
    .map((a) => a.name);
  const allow = allowRuleOf(field, route.field.startsWith('Mutation.') ? 'mutation' : 'query');
  const status =
    typeof route.status === 'number'
      ? route.status
      : route.method === 'POST'
        ? 201
        : route.method === 'DELETE'
          ? 204
          : 200;
  const params = deriveParams(route, field.args);
  return {
    route,
    field,
    fieldName,
    documents,
    runners,
    requiredInputs,
    allow,
    params,
    rules: deriveRules(route, params),
    status,
  };
}
