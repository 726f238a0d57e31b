import type { GraphQLSchema } from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { routesOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { compileRoute, compileRoutes } from '../../src/rest/route-document';
import type { RouteDef } from '../../src/rest/route';

/**
 * Route documents are checked against the schema when routes are compiled (at start-up): all of them
 * in one validation, and a route that does not match names itself.
 */
let schema: GraphQLSchema;
let routes: RouteDef[];
beforeAll(async () => {
  schema = await buildAppSchema(MODULES);
  routes = routesOf(MODULES);
});

const runnerDetail = () => routes.find((r) => r.method === 'GET' && r.path === '/runners/:id')!;

describe('compileRoutes', () => {
  it('compiles every registered route, several on one root field and one with several shapes included', () => {
    const compiled = compileRoutes(schema, routes);
    expect(compiled.map((c) => c.route)).toEqual(routes);
    const fields = compiled.map((c) => c.route.field);
    expect(new Set(fields).size).toBeLessThan(fields.length);
    expect(compiled.some((c) => c.documents.size > 1)).toBe(true);
  });

  it('names the route whose document does not match the schema, among valid ones', () => {
    // A page wrapper on a field that answers one runner: `nodes` is not a field of CiRunner.
    const broken: RouteDef = { ...runnerDetail(), path: '/broken/runners/:id', paginated: true };
    const message =
      /^REST route GET \/broken\/runners\/:id does not match the schema: Cannot query field "nodes" on type "CiRunner"/;
    expect(() => compileRoutes(schema, [...routes, broken])).toThrow(message);
    expect(() => compileRoutes(schema, [broken, ...routes])).toThrow(message);
    expect(() => compileRoute(schema, broken)).toThrow(message);
  });
});
