import { defineModule } from '../../core/module/app-module';
import { Namespace } from './namespace.entity';
import { namespaceLoaders } from './namespace.loaders';
import { NamespaceResolver } from './namespace.resolver';
import { namespaceRoutes } from './namespace.rest';

/** Namespaces: groups and personal (user) namespaces share one table (docs/gitlab-compatibility.md, "Namespaces"). */
export const namespacesModule = defineModule({
  name: 'namespaces', entities: [Namespace], resolvers: [NamespaceResolver], routes: namespaceRoutes, loaders: namespaceLoaders,
});
