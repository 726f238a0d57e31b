import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  execute,
  isObjectType,
  parse,
} from 'graphql';
import { compileQuery, isCompiledQuery } from '../../src/core/graphql/jit';
import { markPropertyRead } from '../../src/core/graphql/property-reads';
import { executionView, publicView } from '../../src/core/graphql/views';
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

/**
 * REST reads a Node's id as the row's `id` property (core/graphql/views.ts, executionView): the
 * compiled route documents call no `databaseId` resolver per row, and the public view keeps its own.
 */
describe('executionView', () => {
  it("gives every Node type's databaseId a plain read of the row's id, leaving the internal and public views' resolvers", () => {
    const exec = executionView(schema);
    const pub = publicView(schema);
    const nodeTypes = Object.values(schema.getTypeMap()).filter(
      (t): t is GraphQLObjectType =>
        isObjectType(t) && t.getInterfaces().some((i) => i.name === 'Node') && !!t.getFields().databaseId,
    );
    expect(nodeTypes.map((t) => t.name)).toEqual(expect.arrayContaining(['Group', 'Project', 'CiRunner', 'CiJob']));
    for (const type of nodeTypes) {
      const internal = type.getFields().databaseId;
      const run = (exec.getType(type.name) as GraphQLObjectType).getFields().databaseId;
      expect([type.name, internal.name, typeof internal.resolve]).toEqual([type.name, 'databaseId', 'function']);
      expect([type.name, run.name, run.resolve, String(run.type)]).toEqual([
        type.name,
        'id',
        undefined,
        String(internal.type),
      ]);
      const shown = (pub.getType(type.name) as GraphQLObjectType | undefined)?.getFields().databaseId;
      if (shown) expect([type.name, shown.name, typeof shown.resolve]).toEqual([type.name, 'databaseId', 'function']);
    }
    expect(executionView(schema)).toBe(exec);
  });

  it('answers the id of every row shape without calling the resolver, which graphql-js execution still calls', async () => {
    let calls = 0;
    const item: GraphQLObjectType = new GraphQLObjectType({
      name: 'Item',
      fields: {
        databaseId: { type: new GraphQLNonNull(GraphQLInt), resolve: (row: { id: number }) => ((calls += 1), row.id) },
        name: { type: GraphQLString },
      },
    });
    markPropertyRead(item.getFields().databaseId, 'id');
    class Entity {
      id = 1;
      name = 'instance';
    }
    const light = Object.create(Object.create(Entity.prototype)) as Entity; // core/db/sql.ts lightEntity
    light.id = 2;
    light.name = 'light';
    const rows = [new Entity(), light, { id: 3, name: 'raw SQL row' }];
    const internal = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: { items: { type: new GraphQLList(item), resolve: () => rows } },
      }),
    });
    const doc = parse('query { items { id: databaseId name } }');
    const expected = { items: [1, 2, 3].map((id, i) => ({ id, name: rows[i].name })) };
    const compiled = compileQuery(executionView(internal), doc);
    if (!isCompiledQuery(compiled)) throw new Error('not compiled');
    expect(await compiled.query(undefined, {}, {})).toEqual({ data: expected });
    expect(calls).toBe(0);
    expect(await execute({ schema: internal, document: doc })).toEqual({ data: expected });
    expect(calls).toBe(3);
  });
});
