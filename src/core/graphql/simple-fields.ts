import { getMetadataStorage } from 'type-graphql';

/**
 * Plain object-type fields (no field resolver, no middleware, property name = GraphQL name) are
 * marked `simple` before the schema is built, so type-graphql gives them no resolver at all: graphql
 * reads the property directly instead of calling a wrapper per field of every row
 * (type-graphql docs, "Performance": simple resolvers). Checks that apply to root fields are attached
 * at schema build time by field-guards.ts, never per row.
 */
export function markSimpleFields(): void {
  const storage = getMetadataStorage();
  const resolved = new Set<string>();
  const classIds = new Map<Function, number>();
  const idOf = (c: Function | undefined) => {
    if (!c) return -1;
    if (!classIds.has(c)) classIds.set(c, classIds.size);
    return classIds.get(c)!;
  };
  for (const r of storage.fieldResolvers) resolved.add(`${idOf(r.getObjectType?.())}.${r.methodName}`);
  for (const field of storage.fields) {
    if (field.simple !== undefined) continue;
    if (field.middlewares?.length || field.roles?.length || field.params?.length) continue;
    if (field.schemaName !== field.name) continue;
    if (resolved.has(`${idOf(field.target)}.${field.name}`)) continue;
    field.simple = true;
  }
}
