import type DataLoader from 'dataloader';
import { Ctx, FieldResolver, ID, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { MaxItems } from '../../core/graphql/list-bound';
import { Reads } from '../../core/graphql/reads';
import {
  CUSTOM_ATTRIBUTES_FIELD_DESCRIPTION,
  CUSTOM_ATTRIBUTES_MAX,
  CustomAttributeType,
  customAttributeEndpoints,
  customAttributeLoader,
  type KeyValue,
} from '../custom-attributes';
import type { Project } from './project.entity';
import { projectAuditEntity, projectService } from './project.service';
import { ProjectType } from './project.type';
import { customAttributePolicy } from '../custom-attributes';

/** `/projects/:id/custom_attributes` and its root fields (GitLab's projects API includes CustomAttributesEndpoints). */
export const projectCustomAttributeEndpoints = customAttributeEndpoints<Project, string>({
  owner: 'Project',
  idArg: 'projectId',
  idType: ID,
  find: (ctx, id) => projectService.findVisible(ctx, id),
  audit: (ctx, p) => projectAuditEntity(ctx, p.id),
});

export function projectCustomAttributeLoaders(ctx: RequestCtx) {
  return { projectCustomAttributes: customAttributeLoader(ctx, 'Project') };
}

declare module '../../core/context/loaders' {
  interface Loaders {
    projectCustomAttributes: DataLoader<number, KeyValue[]>;
  }
}

/** `Project.customAttributes`, as `Group.customAttributes`. */
@Resolver(() => ProjectType)
export class ProjectCustomAttributesField {
  @FieldResolver(() => [CustomAttributeType], { nullable: true, description: CUSTOM_ATTRIBUTES_FIELD_DESCRIPTION })
  @MaxItems(CUSTOM_ATTRIBUTES_MAX)
  @Reads('id')
  customAttributes(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<KeyValue[]> | null {
    return customAttributePolicy.canSeeCustomAttributes(ctx.user)
      ? ctx.loaders.projectCustomAttributes.load(p.id)
      : null;
  }
}
