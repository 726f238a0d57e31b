import type { GraphQLResolveInfo } from 'graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { selectedFields } from '../../core/graphql/selection';
import type { Project } from './project.entity';

/** Project fields computed from the project's namespace (project.resolver.ts). */
const NAMESPACE_FIELDS = ['namespace', 'nameWithNamespace', 'pathWithNamespace', 'webUrl', 'httpUrlToRepo', 'sshUrlToRepo'];

/**
 * Runs, for a list of projects, the batches its selection needs (their namespaces, their shares)
 * before the list is returned, so each row's fields resolve without a promise (issue 8). The same
 * statements the rows' fields would batch lazily; nothing the selection does not ask for.
 */
export async function preloadProjectRelations(ctx: RequestCtx, projects: readonly Project[], info: GraphQLResolveInfo, path: readonly string[] = []): Promise<void> {
  if (projects.length === 0) return;
  const wanted = selectedFields(info, path);
  const loads: Promise<void>[] = [];
  if (NAMESPACE_FIELDS.some((f) => wanted.has(f))) loads.push(ctx.loaders.namespace.preload(projects.map((p) => p.namespaceId)));
  if (wanted.has('sharedWithGroups')) loads.push(ctx.loaders.projectShares.preload(projects.map((p) => p.id)));
  await Promise.all(loads);
}
