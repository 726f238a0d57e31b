import { filterSchema, mapSchema, pruneSchema } from '@graphql-tools/utils';
import { GraphQLError, getNullableType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { NotFoundError } from '../errors/domain-errors';
import { INTERNAL_EXTENSION } from './internal';
import { shareNodeRegistry } from './node';
import { PROPERTY_READ } from './property-reads';

/**
 * One schema, two views (docs/graphql.md#two-views-of-one-schema).
 *
 * The schema the modules declare is the **internal view**: everything the REST routes compile against
 * (rest/route-document.ts), including what exists only for REST: GitLab 10.3's mutation names (kept as
 * deprecated twins of GitLab's payload mutations), REST's page fields and arguments (`page`, `perPage`,
 * `total`, keyset `cursor`), REST spellings of inputs. The **public view** is what `/graphql`,
 * `/api/graphql`, GraphiQL, subscriptions and `schema.graphql` show: the same types, fields and resolvers
 * without those parts, so that it reads as GitLab's GraphQL API. Both views execute the same resolver
 * functions (guards, services, audit events and hooks included): a field is resolved by one function
 * whichever view a request arrived on. What is internal: fields, arguments, input fields and types marked
 * `@Internal()` (internal.ts), and every deprecated field or input field (each deprecation here is a REST
 * alias kept beside GitLab's name).
 */
interface Marked {
  extensions?: Readonly<Record<string, unknown>> | null;
  deprecationReason?: string | null;
}

const isInternal = (c: Marked): boolean => c.extensions?.[INTERNAL_EXTENSION] === true || Boolean(c.deprecationReason);

const views = new WeakMap<GraphQLSchema, GraphQLSchema>();

/** The public view of an internal schema (built once per schema). */
export function publicView(internal: GraphQLSchema): GraphQLSchema {
  let view = views.get(internal);
  if (!view) {
    const filtered = filterSchema({
      schema: internal,
      typeFilter: (_name, type) => !isInternal(type as Marked),
      rootFieldFilter: (_op, _name, field) => !isInternal(field),
      objectFieldFilter: (_type, _name, field) => !isInternal(field),
      interfaceFieldFilter: (_type, _name, field) => !isInternal(field),
      inputObjectFieldFilter: (_type, _name, field) => !isInternal(field),
      argumentFilter: (_type, _field, _name, arg) => !arg || !isInternal(arg),
    });
    // Types only internal fields reached (REST's page metadata enum) leave the public view too.
    view = pruneSchema(filtered);
    shareNodeRegistry(internal, view);
    nullWhenNotFound(view);
    views.set(internal, view);
  }
  return view;
}

const executionViews = new WeakMap<GraphQLSchema, GraphQLSchema>();

/**
 * The schema the REST routes' compiled documents execute on (rest/route-document.ts): the internal view,
 * copied, with each field marked by `markPropertyRead` (property-reads.ts) read as its row's property
 * instead of through its resolver. graphql-jit compiles a field with a resolver as a call whose result
 * may be a promise (a continuation per row), and a field without one as a read of the row's property
 * of the field's name (`row.<field.name>`); so the copy's field keeps its key (`databaseId`, what the
 * documents select and what they are validated against) and takes the property as its name (`id`).
 * Every row shape that reaches such a field has the property: its resolver read nothing else. The copy
 * is only given to graphql-jit: it is never printed, validated against or run by graphql-js's
 * `execute` (which reads `row[<field node's name>]`); those use the internal view.
 */
export function executionView(internal: GraphQLSchema): GraphQLSchema {
  let view = executionViews.get(internal);
  if (!view) {
    view = mapSchema(internal, {});
    shareNodeRegistry(internal, view);
    for (const type of Object.values(view.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const property = field.extensions?.[PROPERTY_READ];
        if (typeof property !== 'string') continue;
        field.resolve = undefined;
        field.name = property;
      }
    }
    executionViews.set(internal, view);
  }
  return view;
}

const notFound = (e: unknown): boolean =>
  e instanceof NotFoundError || (e instanceof GraphQLError && e.extensions?.code === 'NOT_FOUND');

/**
 * GitLab's convention for a root lookup (`group(fullPath)`, `project(fullPath)`, `user(username)`,
 * `runner(id)`): an object that does not exist, or that the caller may not see, is `null` without an
 * error, so a client's default error policy keeps the rest of the screen. REST reads the same resolvers
 * on the internal view, where the not-found error is its 404. Other errors (a refused caller, bad input)
 * stay errors.
 */
function nullWhenNotFound(view: GraphQLSchema): void {
  for (const field of Object.values(view.getQueryType()?.getFields() ?? {})) {
    const type = getNullableType(field.type);
    if (!isObjectType(type) || !type.getInterfaces().some((i) => i.name === 'Node') || !field.resolve) continue;
    const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve;
    field.resolve = (source, args, ctx, info) => {
      try {
        const out = resolve(source, args, ctx, info);
        return out instanceof Promise ? out.catch((e: unknown) => (notFound(e) ? null : Promise.reject(e))) : out;
      } catch (e) {
        if (notFound(e)) return null;
        throw e;
      }
    };
  }
}
