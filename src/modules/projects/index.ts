import { defineModule } from '../../core/module/app-module';
import { ProjectGroupLink } from './project-group-link.entity';
import { ProjectStar } from './project-star.entity';
import { Project } from './project.entity';
import { projectLoaders } from './project.loaders';
import { ProjectResolver } from './project.resolver';
import { projectRoutes } from './project.rest';

export const projectsModule = defineModule({
  name: 'projects', entities: [Project, ProjectGroupLink, ProjectStar], resolvers: [ProjectResolver], routes: projectRoutes, loaders: projectLoaders,
});
