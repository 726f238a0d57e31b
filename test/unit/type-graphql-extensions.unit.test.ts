import type { GraphQLField, GraphQLInputField, GraphQLSchema } from 'graphql';

/**
 * core/runtime's type-graphql-extensions patch (docs/runtime-patches.md) changes how a schema build
 * finds each field's @Extensions, not what it finds: the schema built with it and without it carries
 * the same extensions on every type, field and argument.
 */
type Extensions = Record<string, unknown>;

/** Functions compared by their source: the two builds load the modules twice. */
const comparable = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value ?? {}, (_k, v: unknown) => (typeof v === 'function' ? `fn ${String(v)}` : v)));

function extensionsOf(schema: GraphQLSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    out[type.name] = comparable(type.extensions);
    // Each build has its own graphql-js types (another module registry): told apart by shape, not class.
    if (!('getFields' in type)) continue;
    const fields = type.getFields() as Record<string, GraphQLField<unknown, unknown> | GraphQLInputField>;
    for (const field of Object.values(fields)) {
      out[`${type.name}.${field.name}`] = comparable(field.extensions as Extensions);
      for (const arg of 'args' in field ? field.args : [])
        out[`${type.name}.${field.name}(${arg.name})`] = comparable(arg.extensions as Extensions);
    }
  }
  return out;
}

/** The app schema built in a module registry of its own, with RUNTIME_PATCHES_OFF as given. */
async function buildWith(patchesOff: string): Promise<GraphQLSchema> {
  const before = process.env.RUNTIME_PATCHES_OFF;
  process.env.RUNTIME_PATCHES_OFF = patchesOff;
  // type-graphql keeps its decorator metadata on the global object: each build starts from none.
  delete (globalThis as { TypeGraphQLMetadataStorage?: unknown }).TypeGraphQLMetadataStorage;
  let built: Promise<GraphQLSchema> | undefined;
  try {
    jest.isolateModules(() => {
      /* eslint-disable @typescript-eslint/no-require-imports */
      const { MODULES } = require('../../src/modules') as typeof import('../../src/modules');
      const { buildAppSchema } =
        require('../../src/core/graphql/schema') as typeof import('../../src/core/graphql/schema');
      /* eslint-enable @typescript-eslint/no-require-imports */
      built = buildAppSchema(MODULES);
    });
    return await built!;
  } finally {
    if (before === undefined) delete process.env.RUNTIME_PATCHES_OFF;
    else process.env.RUNTIME_PATCHES_OFF = before;
  }
}

describe('type-graphql extension lookup (core/runtime)', () => {
  it("gives every type, field and argument the same extensions as type-graphql's own lookup", async () => {
    const patched = extensionsOf(await buildWith(''));
    const original = extensionsOf(await buildWith('type-graphql-extensions'));
    expect(Object.keys(patched).length).toBeGreaterThan(1000);
    expect(Object.values(patched).filter((e) => Object.keys(e as Extensions).length > 0).length).toBeGreaterThan(100);
    expect(patched).toEqual(original);
  }, 60_000);
});
