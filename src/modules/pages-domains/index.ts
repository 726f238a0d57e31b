import { defineModule } from '../../core/module/app-module';
import { nodeDef } from '../../core/graphql/node';
import { pagesDomainService } from './pages-domain.service';
import { Migration20261122120000PagesDomains } from './migrations/Migration20261122120000_pages_domains';
import { Migration20261201120000PagesCertificateDetails } from './migrations/Migration20261201120000_pages_certificate_details';
import { PagesDomain } from './pages-domain.entity';
import { PagesDomainResolver } from './pages-domain.resolver';
import { pagesDomainLoaders } from './pages-domain.loaders';
import {
  PagesDomainLinksResolver,
  ProjectPagesDomainsResolver,
  projectPagesDomainLoaders,
} from './pages-domain-links.resolver';
import { pagesDomainRoutes } from './pages-domain.rest';
import { PAGES_ENABLED, PAGES_HOST } from './pages-config';
import { seedPagesDomains } from './pages-domain.seed';

/** Custom domains and certificates of projects' pages sites (spec 4.24-4.29). */
export const pagesDomainsModule = defineModule({
  name: 'pages-domains',
  nodes: [nodeDef({ type: 'PagesDomain', gidClass: 'PagesDomain', load: pagesDomainService.visibleByIds })],
  entities: [PagesDomain],
  migrations: [
    { name: 'Migration20261122120000_pages_domains', class: Migration20261122120000PagesDomains },
    {
      name: 'Migration20261201120000_pages_certificate_details',
      class: Migration20261201120000PagesCertificateDetails,
    },
  ],
  resolvers: [PagesDomainResolver, PagesDomainLinksResolver, ProjectPagesDomainsResolver],
  routes: pagesDomainRoutes,
  loaders: [pagesDomainLoaders, projectPagesDomainLoaders],
  seed: [seedPagesDomains],
  settings: [PAGES_ENABLED, PAGES_HOST],
  // The slot's row is `<project id>:<domain>` (pages-domain.service.ts), fixed before the row exists.
  sealed: [
    {
      table: 'pages_domains',
      column: 'sealed_key',
      rowKey: `project_id || ':' || lower(domain)`,
      // A lost key: the private key is gone (null).
      resetLost: {
        note: 'pages domains with a certificate need their private key uploaded again (PUT /projects/:id/pages/domains/:domain)',
      },
    },
  ],
});
