import { getMetadataStorage } from 'type-graphql';

type Input = object;
type ClassOf = abstract new (...args: never[]) => Input;

const cache = new WeakMap<Function, readonly string[]>();

/** The @Field names of an input class and its ancestors: the allow-list of a write. */
export function inputFields(cls: ClassOf): readonly string[] {
  let names = cache.get(cls);
  if (!names) {
    const all = getMetadataStorage().fields;
    const set = new Set<string>();
    for (
      let c: Function | null = cls;
      c && c !== Object && c !== Function.prototype;
      c = Object.getPrototypeOf(c) as Function | null
    ) {
      for (const f of all) if (f.target === c) set.add(f.name);
    }
    names = [...set];
    cache.set(cls, names);
  }
  return names;
}

/** How one input field is stored when it is not copied as it is: new column values, or `skip`. */
export type PatchMapping<I> = { [K in keyof I]?: ((value: NonNullable<I[K]>) => Record<string, unknown>) | 'skip' };

/**
 * The one write path from an input to an entity (Vendure's patchEntity): copies every field the
 * input class declares and the caller sent (null/undefined mean "unchanged", as GitLab's optional
 * params), through `mapping` where storage differs (visibility → visibilityLevel). Never copies a
 * key the input class does not declare, so a request cannot set `id`, `token` or `admin` unless the
 * input declares it. Returns the names of the fields it wrote.
 */
export function patchEntity<T extends object, I extends Input>(
  entity: T,
  input: I,
  cls: ClassOf,
  mapping: PatchMapping<I> = {},
): string[] {
  const target = entity as Record<string, unknown>;
  const source = input as Record<string, unknown>;
  const written: string[] = [];
  for (const name of inputFields(cls)) {
    const value = source[name];
    if (value === undefined || value === null) continue;
    const map = (mapping as Record<string, ((v: unknown) => Record<string, unknown>) | 'skip' | undefined>)[name];
    if (map === 'skip') continue;
    Object.assign(target, map ? map(value) : { [name]: value });
    written.push(name);
  }
  return written;
}
