import { isInterfaceType, type GraphQLSchema } from 'graphql';

/**
 * type-graphql wraps an interface's `resolveType` option in an async function, which graphql-jit does
 * not await (node.ts sets Node's for the same reason). An interface that one object type implements
 * (GitLab's GroupInterface and ProjectInterface here: a Group, a Project) resolves to that type, synchronously.
 */
export function singleImplementationTypes(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isInterfaceType(type) || type.name === 'Node') continue;
    const { objects } = schema.getImplementations(type);
    if (objects.length !== 1) continue;
    const name = objects[0].name;
    type.resolveType = () => name;
  }
  return schema;
}
