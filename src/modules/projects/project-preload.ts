import type { GraphQLResolveInfo } from 'graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { selectedFields } from '../../core/graphql/selection';
import type { Project } from './project.entity';

/** Project fields computed from the project's namespace (project.resolver.ts). */
const NAMESPACE_FIELDS = [
  'namespace',
  'nameWithNamespace',
  'pathWithNamespace',
  'webUrl',
  'httpUrlToRepo',
  'sshUrlToRepo',
  'lfsEnabled',
];

/** Fork sources (visible ones) and then their namespaces, which their BasicProjectDetails name. */
async function preloadForkSources(ctx: RequestCtx, projects: readonly Project[]): Promise<void> {
  const ids: number[] = [];
  for (const p of projects)
    if (p.forkedFromProjectId !== null && p.forkedFromProjectId !== undefined) ids.push(p.forkedFromProjectId);
  if (ids.length === 0) return;
  await ctx.loaders.visibleProject.preload(ids);
  const namespaceIds: number[] = [];
  for (const id of ids) {
    const source = ctx.loaders.visibleProject.peek(id);
    if (source) namespaceIds.push(source.namespaceId);
  }
  if (namespaceIds.length) await ctx.loaders.namespace.preload(namespaceIds);
}

function wantedOf(info: GraphQLResolveInfo, path: readonly string[], into = new Set<string>()): Set<string> {
  for (const f of selectedFields(info, path)) into.add(f);
  return into;
}

async function preload(ctx: RequestCtx, projects: readonly Project[], wanted: Set<string>): Promise<void> {
  if (projects.length === 0) return;
  const loads: Promise<void>[] = [];
  if (NAMESPACE_FIELDS.some((f) => wanted.has(f))) {
    const ids: number[] = [];
    for (const p of projects) ids.push(p.namespaceId);
    loads.push(ctx.loaders.namespace.preload(ids));
  }
  if (wanted.has('sharedWithGroups')) {
    const ids: number[] = [];
    for (const p of projects) ids.push(p.id);
    loads.push(ctx.loaders.projectShares.preload(ids));
  }
  if (wanted.has('owner')) {
    const ids: number[] = [];
    for (const p of projects) ids.push(p.namespaceId);
    loads.push(ctx.loaders.namespaceOwner.preload(ids));
  }
  if (wanted.has('permissions') && ctx.user) {
    const ids: number[] = [];
    for (const p of projects) ids.push(p.id);
    loads.push(ctx.loaders.projectPermissions.preload(ids));
  }
  if (wanted.has('forkedFromProject')) loads.push(preloadForkSources(ctx, projects));
  await Promise.all(loads);
}

/** The projects of the lists that loaded (a failed list keeps its own error). */
function loadedProjects(results: PromiseSettledResult<Project[]>[]): Project[] {
  const all: Project[] = [];
  for (const r of results) if (r.status === 'fulfilled') for (const p of r.value) all.push(p);
  return all;
}

/**
 * Runs, for a list of projects, the batches its selection needs (their namespaces, their shares)
 * before the list is returned, so each row's fields resolve without a promise. The same
 * statements the rows' fields would batch lazily; nothing the selection does not ask for.
 */
export async function preloadProjectRelations(
  ctx: RequestCtx,
  projects: readonly Project[],
  info: GraphQLResolveInfo,
  path: readonly string[] = [],
): Promise<void> {
  await preload(ctx, projects, wantedOf(info, path));
}

interface Pass {
  lists: Promise<Project[]>[];
  wanted: Set<string>;
  done?: Promise<void>;
}
const passes = new WeakMap<RequestCtx, Pass>();

/**
 * For project lists that are fields of other objects (a group's `projects` and `sharedProjects`,
 * the same field of every group of a page): every such list requested in the same execution pass
 * joins one preload, which waits for all of them and then runs one namespace batch and one share
 * batch for all their projects (the detail form would otherwise run each twice).
 */
export function withPreloadedRelations(
  ctx: RequestCtx,
  list: Promise<Project[]>,
  info: GraphQLResolveInfo,
): Promise<Project[]> {
  let pass = passes.get(ctx);
  if (!pass) {
    const current: Pass = { lists: [], wanted: new Set() };
    pass = current;
    passes.set(ctx, current);
    // The pass closes when the resolvers running now have all been called.
    process.nextTick(() => {
      passes.delete(ctx);
      // Never rejects: a list that failed keeps its own error, and anything not preloaded loads lazily.
      current.done = Promise.allSettled(current.lists)
        .then((results) => preload(ctx, loadedProjects(results), current.wanted))
        .catch(() => undefined);
    });
  }
  pass.lists.push(list);
  wantedOf(info, [], pass.wanted);
  const joined = pass;
  return list.then(async (projects) => {
    await Promise.resolve(); // the pass has closed by now (nextTick runs before promise jobs)
    await joined.done;
    return projects;
  });
}
