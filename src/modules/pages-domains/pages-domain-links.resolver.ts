import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import type { PagesDomain } from './pages-domain.entity';
import { PagesDomainType } from './pages-domain.type';
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
