import { defineModule } from '../../core/module/app-module';
import { nodeDef } from '../../core/graphql/node';
import { environmentService } from './environment.service';
import { Environment } from './environment.entity';
import { environmentLoaders } from './environment.loaders';
import { environmentListLoaders, ProjectEnvironmentsResolver } from './environment-links.resolver';
import { EnvironmentResolver } from './environment.resolver';
import { ProjectEnvironmentResolver, projectEnvironmentLoaders } from './project-environment.resolver';
import { EnvironmentCleanupResolver } from './environment-cleanup.resolver';
import { environmentRoutes } from './environment.rest';
import { seedEnvironments } from './environment.seed';
import { Migration20261122120100Environments } from './migrations/Migration20261122120100_environments';
import { Migration20261212100100EnvironmentsCleanupIndexes } from './migrations/Migration20261212100100_environments_cleanup_indexes';
import { Migration20261215090000EnvironmentDescription } from './migrations/Migration20261215090000_environment_description';

/** Environments of projects (spec 4.30-4.34). */
export const environmentsModule = defineModule({
  name: 'environments',
  nodes: [nodeDef({ type: 'Environment', gidClass: 'Environment', load: environmentService.visibleByIds })],
  entities: [Environment],
  migrations: [
    { name: 'Migration20261122120100_environments', class: Migration20261122120100Environments },
    {
      name: 'Migration20261212100100_environments_cleanup_indexes',
      class: Migration20261212100100EnvironmentsCleanupIndexes,
    },
    {
      name: 'Migration20261215090000_environment_description',
      class: Migration20261215090000EnvironmentDescription,
    },
  ],
  resolvers: [EnvironmentResolver, EnvironmentCleanupResolver, ProjectEnvironmentsResolver, ProjectEnvironmentResolver],
  routes: environmentRoutes,
  loaders: [environmentLoaders, environmentListLoaders, projectEnvironmentLoaders],
  seed: [seedEnvironments],
});
