import type { EntityManager } from '@mikro-orm/postgresql';
import { ReferenceKind, type EntityClass } from '@mikro-orm/core';
import { getNamedType, isObjectType, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import { Extensions } from 'type-graphql';
import { selectedFields } from './selection';

const EXTENSION = 'reads';

/**
 * The entity properties a field resolver reads from its root row, declared on the resolver method
 * (`@Reads('path', 'namespaceId')`). Lists may then fetch only the columns their selection needs
 * (`selectedColumns`). A field resolver without it makes a list fetch every column.
 */
export function Reads(...props: string[]): MethodDecorator {
  return Extensions({ [EXTENSION]: props });
}

/** Select lists per document field, then per entity, alias and path (one entry in practice). */
const cache = new WeakMap<readonly FieldNode[], Map<string, string>>();

/**
 * The SQL select list (`alias.col, …`) for the rows of `entity` that a list field returns, from what
 * its selection asks for, so a nested list decodes the columns it shows, not the whole row.
 * Plain fields (no resolver) are entity properties of the same name; a field resolver contributes
 * its `@Reads` properties. The primary key is always there. `alias.*` when a selected field has a
 * resolver without `@Reads`, or names no single-column property: the safe answer. Computed once per
 * document field (the same AST node serves every row and, for cached documents, every request).
 */
export function selectedColumns(
  em: EntityManager,
  entity: EntityClass<object>,
  info: GraphQLResolveInfo,
  alias: string,
  path: readonly string[] = [],
): string {
  let byUse = cache.get(info.fieldNodes);
  if (!byUse) {
    byUse = new Map();
    cache.set(info.fieldNodes, byUse);
  }
  const key = `${entity.name} ${alias} ${path.join('.')}`;
  let columns = byUse.get(key);
  if (columns === undefined) {
    columns = computeColumns(em, entity, info, alias, path);
    byUse.set(key, columns);
  }
  return columns;
}

/**
 * The select list for the items of a connection field: what `nodes { … }` and `edges { node { … } }`
 * read together (the primary key alone when neither is selected, `alias.*` when either needs every column).
 */
export function selectedPageColumns(
  em: EntityManager,
  entity: EntityClass<object>,
  info: GraphQLResolveInfo,
  alias: string,
): string {
  const lists = [
    selectedColumns(em, entity, info, alias, ['nodes']),
    selectedColumns(em, entity, info, alias, ['edges', 'node']),
  ];
  if (lists.includes(`${alias}.*`)) return `${alias}.*`;
  return [...new Set(lists.flatMap((l) => l.split(', ')))].join(', ');
}

function computeColumns(
  em: EntityManager,
  entity: EntityClass<object>,
  info: GraphQLResolveInfo,
  alias: string,
  path: readonly string[],
): string {
  const all = `${alias}.*`;
  let type = getNamedType(info.returnType);
  for (const step of path) {
    if (!isObjectType(type)) return all;
    const f = type.getFields()[step];
    if (!f) return all;
    type = getNamedType(f.type);
  }
  if (!isObjectType(type)) return all;
  const meta = em.getMetadata().get(entity.name);
  const fields = type.getFields();
  const props = new Set<string>(meta.primaryKeys);
  for (const name of selectedFields(info, path)) {
    if (name.startsWith('__')) continue;
    const field = fields[name];
    if (!field) return all;
    if (field.resolve) {
      const reads = field.extensions?.[EXTENSION] as string[] | undefined;
      if (!reads) return all;
      for (const p of reads) props.add(p);
    } else {
      props.add(field.name); // the property read (not the schema key in REST's execution view, views.ts)
    }
  }
  const columns: string[] = [];
  for (const p of props) {
    const prop = meta.properties[p as never] as { kind: ReferenceKind; fieldNames?: string[] } | undefined;
    if (!prop || prop.kind !== ReferenceKind.SCALAR || prop.fieldNames?.length !== 1) return all;
    columns.push(`${alias}."${prop.fieldNames[0]}"`);
  }
  return columns.join(', ');
}
