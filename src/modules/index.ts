import type { AppModule } from '../core/module/app-module';
import { accessModule } from './access';
import { applicationSettingsModule } from './application-settings';
import { auditEventsModule } from './audit-events';
import { avatarsModule } from './avatars';
import { ciModule } from './ci';
import { customAttributesModule } from './custom-attributes';
import { broadcastMessagesModule } from './broadcast-messages';
import { demoModule } from './demo';
import { emailsModule } from './emails';
import { featuresModule } from './features';
import { environmentsModule } from './environments';
import { gpgKeysModule } from './gpg-keys';
import { groupsModule } from './groups';
import { keysModule } from './keys';
import { membersModule } from './members';
import { metadataModule } from './metadata';
import { namespacesModule } from './namespaces';
import { pagesDomainsModule } from './pages-domains';
import { projectsModule } from './projects';
import { runnersModule } from './runners';
import { systemHooksModule } from './system-hooks';
import { tokensModule } from './tokens';
import { usersModule } from './users';

/**
 * Every module of the service, one line each (docs/adding-a-resource.md#2-one-registry-line). The order is the REST
 * mount order where express paths overlap (static segments before parameters) and the seed order.
 */
export const MODULES: readonly AppModule[] = [
  accessModule,
  namespacesModule,
  usersModule,
  tokensModule,
  groupsModule,
  membersModule,
  projectsModule,
  applicationSettingsModule,
  demoModule,
  runnersModule,
  ciModule,
  broadcastMessagesModule,
  featuresModule,
  environmentsModule,
  pagesDomainsModule,
  auditEventsModule,
  avatarsModule,
  customAttributesModule,
  gpgKeysModule,
  systemHooksModule,
  keysModule,
  emailsModule,
  metadataModule,
];
