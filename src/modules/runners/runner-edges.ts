import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Loaded } from '../../core/context/peek-loader';
import { edgeTypeOf, type Edge, type Page } from '../../core/pagination/page';
import type { Namespace } from '../namespaces';
import type { Project } from '../projects';
import type { Runner } from './runner.entity';
import { RunnerPage } from './runner.type';

/** Whose runner list a page is (`Project.runners`, `Group.runners`): GitLab's runner edge links depend on it. */
export type RunnerListOwner = { project: Project } | { group: Namespace };

const owners = new WeakMap<Page<Runner>, RunnerListOwner>();

/** Records whose runner list the page is (for its edges' webUrl/editUrl). */
export function ownedPage(page: Page<Runner>, owner: RunnerListOwner): Page<Runner> {
  owners.set(page, owner);
  return page;
}

/**
 * GitLab's RunnerWebUrlEdge: the runner's page under the list's project (`/<project>/-/runners/<id>`) or
 * group (`/groups/<group>/-/runners/<id>`); null in other lists (the admin fleet, a user's runners).
 */
function runnerUrl(ctx: RequestCtx, edge: Edge<Runner>, suffix: string): Loaded<string | null> {
  const owner = owners.get(edge.page);
  if (!owner) return null;
  const tail = `/-/runners/${edge.node.id}${suffix}`;
  if ('group' in owner) return `${ctx.externalUrl}/groups/${owner.group.fullPath}${tail}`;
  const { project } = owner;
  return ctx.loaders.namespace.map(project.namespaceId, (ns) =>
    ns ? `${ctx.externalUrl}/${ns.fullPath}/${project.path}${tail}` : null,
  );
}

@Resolver(() => edgeTypeOf(RunnerPage))
export class RunnerEdgeResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: 'Web URL of the runner under the project or group whose `runners` list this is; null in other lists.',
  })
  webUrl(@Root() edge: Edge<Runner>, @Ctx() ctx: RequestCtx): Loaded<string | null> {
    return runnerUrl(ctx, edge, '');
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      "Web URL of the runner's edit page under the project or group whose `runners` list this is; null in other lists.",
  })
  editUrl(@Root() edge: Edge<Runner>, @Ctx() ctx: RequestCtx): Loaded<string | null> {
    return runnerUrl(ctx, edge, '/edit');
  }
}
