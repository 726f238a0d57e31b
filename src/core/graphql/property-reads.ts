import type { GraphQLField } from 'graphql';

/** The field extension naming the row property a field answers as it is. */
export const PROPERTY_READ = 'propertyRead';

/**
 * Marks a field whose resolver only answers a property of its row, as it is (a Node's `databaseId`
 * answers the row's `id`: core/graphql/node.ts). The schema the REST documents execute on reads that
 * property instead of calling the resolver (views.ts, `executionView`).
 */
export function markPropertyRead(field: GraphQLField<unknown, unknown>, property: string): void {
  (field as { extensions: Record<string, unknown> }).extensions = { ...field.extensions, [PROPERTY_READ]: property };
}
