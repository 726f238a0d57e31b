import { defineModule } from '../../core/module/app-module';
import { nodeDef } from '../../core/graphql/node';
import { projectService } from './project.service';
import { ProjectGroupLink } from './project-group-link.entity';
import { ProjectStar } from './project-star.entity';
import { Project } from './project.entity';
import { projectLoaders } from './project.loaders';
import { ProjectLinksResolver } from './project-links.resolver';
import { ProjectResolver } from './project.resolver';
import { ProjectForkResolver } from './project-fork.resolver';
import { projectRoutes } from './project.rest';
import { Migration20261203140000ProjectsGrowthIndexes } from './migrations/Migration20261203140000_projects_growth_indexes';
import { Migration20261204090000ProjectForksAndSettings } from './migrations/Migration20261204090000_project_forks_and_settings';
import { Migration20261207090000ProjectsSearchTrgm } from './migrations/Migration20261207090000_projects_search_trgm';
import { Migration20261210090000ProjectsForksCountRecount } from './migrations/Migration20261210090000_projects_forks_count_recount';

export const projectsModule = defineModule({
  name: 'projects',
  entities: [Project, ProjectGroupLink, ProjectStar],
  resolvers: [ProjectResolver, ProjectForkResolver, ProjectLinksResolver],
  routes: projectRoutes,
  loaders: projectLoaders,
  nodes: [
    nodeDef({ type: 'Project', gidClass: 'Project', load: projectService.visibleByIds }),
    nodeDef({ type: 'ProjectGroupLink', gidClass: 'ProjectGroupLink', load: projectService.visibleGroupLinks }),
  ],
  migrations: [
    { name: 'Migration20261203140000_projects_growth_indexes', class: Migration20261203140000ProjectsGrowthIndexes },
    {
      name: 'Migration20261204090000_project_forks_and_settings',
      class: Migration20261204090000ProjectForksAndSettings,
    },
    { name: 'Migration20261207090000_projects_search_trgm', class: Migration20261207090000ProjectsSearchTrgm },
    {
      name: 'Migration20261210090000_projects_forks_count_recount',
      class: Migration20261210090000ProjectsForksCountRecount,
    },
  ],
  // Added by the runners module's migration; sealed and read here (project-runners-token.ts).
  sealed: [{ table: 'projects', column: 'runners_token', rowKey: 'id', digestColumn: 'runners_token_digest' }],
});

// Types other modules use: type-only, so importing them through this door adds no load-order cycle.
export type { Project } from './project.entity';
