import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { INTERNAL_EXTENSION } from './internal';
import { shareNodeRegistry } from './node';

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
    views.set(internal, view);
  }
  return view;
}
