import { defineModule } from '../../core/module/app-module';
import { MetadataResolver } from './metadata.resolver';
import { metadataRoutes } from './metadata.rest';

/** The instance's version and revision (GitLab's metadata and version APIs); no tables. */
export const metadataModule = defineModule({
  name: 'metadata',
  resolvers: [MetadataResolver],
  routes: metadataRoutes,
});
