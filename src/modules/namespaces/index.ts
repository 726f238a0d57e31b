import { defineModule } from '../../core/module/app-module';
import { Namespace } from './namespace.entity';
import { namespaceLoaders } from './namespace.loaders';

/** Namespaces: groups and personal (user) namespaces share one table (docs/gitlab-compatibility.md). */
export const namespacesModule = defineModule({ name: 'namespaces', entities: [Namespace], loaders: namespaceLoaders });
