import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import type { Namespace } from '../namespaces';
import { ProjectType, type Project } from '../projects';
import { GroupType } from './group.type';
import type { Loaded } from '../../core/context/peek-loader';

/** `Project.group`: the groups module adds it to the projects module's type (batched, checked like `group(fullPath)`). */
@Resolver(() => ProjectType)
export class ProjectGroupField {
  @FieldResolver(() => GroupType, {
    nullable: true,
    description: 'The group the project belongs to, when the caller may see it; null for a personal project.',
  })
  @Reads('namespaceId')
  group(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<Namespace | null> {
    return ctx.loaders.visibleGroup.get(p.namespaceId);
  }
}
