import type { GraphQLResolveInfo } from 'graphql';
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { Reads } from '../../core/graphql/reads';
import { pageItemsSelect } from '../../core/graphql/selection';
import { PageArgs, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { projectPolicy } from '../projects';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import type { PagesDomain } from './pages-domain.entity';
import { pagesDomainService } from './pages-domain.service';
import { PagesDomainPage, PagesDomainType } from './pages-domain.type';
import type { Loaded } from '../../core/context/peek-loader';

/** A pages domain's project (an object link a dashboard follows), batched, null when the caller may not see the project. */
@Resolver(() => PagesDomainType)
export class PagesDomainLinksResolver {
  @FieldResolver(() => ProjectType, {
    nullable: true,
    description: 'The project serving the domain, when the caller may see it.',
  })
  project(@Root() d: PagesDomain, @Ctx() ctx: RequestCtx): Loaded<Project | null> {
    return ctx.loaders.visibleProject.get(d.projectId);
  }
}

export function projectPagesDomainLoaders(ctx: RequestCtx) {
  return {
    /** `Project.pagesDomains` across the projects of a list: one round trip per argument set and column choice. */
    projectPagesDomainLists: perParentPages<PageArgs & { certificates: boolean }, PagesDomain>(
      ({ certificates, ...args }, ids) => pagesDomainService.listForProjects(ctx, ids, args, { certificates }),
    ),
  };
}

type ProjectPagesDomainLoaders = ReturnType<typeof projectPagesDomainLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ProjectPagesDomainLoaders {}
}

/**
 * A project's pages domains as its field (ours; REST's root list `projectPagesDomains` and lookup
 * `pagesDomain` are internal): Maintainers and administrators while pages are served; null otherwise.
 */
@Resolver(() => ProjectType)
export class ProjectPagesDomainsResolver {
  @FieldResolver(() => PagesDomainPage, {
    nullable: true,
    description:
      "The project's pages domains, by domain: for its Maintainers and administrators while pages are served; null otherwise.",
  })
  @Reads('id')
  async pagesDomains(
    @Root() p: Project,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<PagesDomain> | null> {
    if (!ctx.user || !pagesDomainService.pagesEnabled(ctx)) return null;
    const level = await ctx.loaders.projectLevel.load(p.id);
    if (!projectPolicy.canAdminProject(ctx.user, level)) return null;
    const certificates = pageItemsSelect(info, 'certificate');
    return ctx.loaders.projectPagesDomainLists.load({ parentId: p.id, args: { ...args, certificates } });
  }
}
