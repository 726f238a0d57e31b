import { getMetadataStorage } from 'type-graphql';

/**
 * Runtime patch of type-graphql (one of core/runtime's; docs/runtime-patches.md).
 *
 * While it builds a schema, type-graphql's `MetadataStorage.findExtensions(target, fieldName)` looks
 * up the `@Extensions` of every field and resolver method by filtering the whole list of field
 * extensions (metadata/metadata-storage.js), with an `Object.prototype.isPrototypeOf` call per entry:
 * fields × entries calls per schema build (about 1,000 × 470 here). The replacement filters only the
 * entries declared for that field name, in the same order and with the same test, so each field gets
 * exactly the object it got before. Entries are grouped once per `build()` (which reverses the lists
 * in place before it reads them) and only used inside it; any other call takes the original path.
 */
interface ExtensionEntry {
  target: Function;
  fieldName?: string;
  extensions: Record<string, unknown>;
}
interface Storage {
  fieldExtensions: ExtensionEntry[];
  classExtensions: ExtensionEntry[];
  findExtensions(target: Function, fieldName?: string): Record<string, unknown>;
  build(options: unknown): void;
}

/** Field extensions by field name, for a storage while its `build()` runs. */
const building = new WeakMap<Storage, Map<string, ExtensionEntry[]> | undefined>();

function storageClass(): { prototype: Storage } {
  return getMetadataStorage().constructor as unknown as { prototype: Storage };
}

/** The contract: the storage still keeps its extension lists and looks them up through these two methods. */
export function typeGraphqlExtensionsContract(): string | undefined {
  const proto = storageClass().prototype;
  if (typeof proto.findExtensions !== 'function' || proto.findExtensions.length !== 2)
    return 'MetadataStorage.prototype.findExtensions(target, fieldName) is gone';
  if (typeof proto.build !== 'function') return 'MetadataStorage.prototype.build is gone';
  const storage = getMetadataStorage() as unknown as Partial<Storage>;
  if (!Array.isArray(storage.fieldExtensions) || !Array.isArray(storage.classExtensions))
    return 'MetadataStorage no longer keeps fieldExtensions and classExtensions lists';
  return undefined;
}

const merge = (entries: ExtensionEntry[], target: Function): Record<string, unknown> =>
  entries
    .filter((entry) => entry.target === target || Object.prototype.isPrototypeOf.call(entry.target, target))
    .reduce<Record<string, unknown>>((extensions, entry) => ({ ...extensions, ...entry.extensions }), {});

let installed = false;

export function installTypeGraphqlExtensions(): void {
  if (installed || typeGraphqlExtensionsContract()) return;
  installed = true;
  const proto = storageClass().prototype;
  const { findExtensions, build } = proto;
  proto.build = function (this: Storage, options: unknown) {
    building.set(this, undefined);
    try {
      build.call(this, options);
    } finally {
      building.delete(this);
    }
  };
  proto.findExtensions = function (this: Storage, target: Function, fieldName?: string) {
    // Class extensions, calls outside build(), and an entry without a field name (which type-graphql's
    // decorators never make) take the original path.
    if (!fieldName || !building.has(this)) return findExtensions.call(this, target, fieldName);
    let index = building.get(this);
    if (!index) {
      if (this.fieldExtensions.some((entry) => !('fieldName' in entry)))
        return findExtensions.call(this, target, fieldName);
      index = new Map();
      for (const entry of this.fieldExtensions) {
        const list = index.get(entry.fieldName!);
        if (list) list.push(entry);
        else index.set(entry.fieldName!, [entry]);
      }
      building.set(this, index);
    }
    return merge(index.get(fieldName) ?? [], target);
  };
}
