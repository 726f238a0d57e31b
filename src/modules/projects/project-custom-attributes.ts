import { ID } from 'type-graphql';
import { customAttributeEndpoints } from '../custom-attributes';
import type { Project } from './project.entity';
import { projectAuditEntity, projectService } from './project.service';
import { ProjectType } from './project.type';

/** `/projects/:id/custom_attributes`, its root fields and `Project.customAttributes` (GitLab's projects API includes CustomAttributesEndpoints). */
export const projectCustomAttributeEndpoints = customAttributeEndpoints<Project, string>({
  owner: 'Project',
  idArg: 'projectId',
  idType: ID,
  find: (ctx, id) => projectService.findVisible(ctx, id),
  audit: (ctx, p) => projectAuditEntity(ctx, p.id),
  type: ProjectType,
});
