import 'reflect-metadata';
import { loaderFactory, type AppModule } from '../../src/core/module/app-module';
import type { RequestCtx } from '../../src/core/context/request-ctx';
import { MODULES } from '../../src/modules';

/**
 * ctx.loaders builds a loader set on the first read of one of its loaders, and only that set
 * (docs/adding-a-resource.md, "loaders"): a request that reads one group loader does not build the
 * module's other sets.
 */
function counted(made: string[]) {
  const set = (name: string, keys: string[]) => (ctx: RequestCtx) => {
    if (ctx.em !== undefined) made.push(name);
    return Object.fromEntries(keys.map((k) => [k, { set: name, ctx }]));
  };
  return { set };
}

const ctxOf = (n: number) => ({ em: n }) as unknown as RequestCtx;

describe('loader sets', () => {
  it('builds only the set whose loader is read, once per request', () => {
    const made: string[] = [];
    const { set } = counted(made);
    const modules = [
      { name: 'a', loaders: [set('a1', ['x', 'y']), set('a2', ['z'])] },
      { name: 'b', loaders: set('b1', ['w']) },
    ] as unknown as AppModule[];
    const make = loaderFactory(modules);
    const one = make(ctxOf(1)) as Record<string, { set: string; ctx: unknown }>;
    expect(one.z.set).toBe('a2');
    expect(one.z).toBe(one.z);
    expect(made).toEqual(['a2']);
    expect(one.x.set).toBe('a1');
    expect(one.y.set).toBe('a1');
    expect(made).toEqual(['a2', 'a1']);
    const two = make(ctxOf(2)) as Record<string, { set: string; ctx: unknown }>;
    expect(two.w.ctx).toEqual(ctxOf(2));
    expect(two.z).not.toBe(one.z);
    expect(made).toEqual(['a2', 'a1', 'b1', 'a2']);
  });

  it('refuses two sets declaring one name, within a module or across modules', () => {
    const { set } = counted([]);
    const within = [{ name: 'a', loaders: [set('a1', ['x']), set('a2', ['x'])] }] as unknown as AppModule[];
    expect(() => loaderFactory(within)).toThrow('loader sets of a and a both declare the loader x');
    const across = [
      { name: 'a', loaders: set('a1', ['x']) },
      { name: 'b', loaders: [set('b1', ['x'])] },
    ] as unknown as AppModule[];
    expect(() => loaderFactory(across)).toThrow('loader sets of a and b both declare the loader x');
  });

  it("the service's modules list their sets: none spreads several factories into one", () => {
    // `...groupLoaders(ctx)`, as compiled: `...(0, group_loaders_1.groupLoaders)(ctx)`
    const spreadCall = /\.\.\.\s*(\(0,\s*)?[\w$.]+\)?\(ctx\)/;
    const spread = MODULES.filter((m) => typeof m.loaders === 'function' && spreadCall.test(m.loaders.toString()));
    expect(spread.map((m) => m.name)).toEqual([]);
  });
});
