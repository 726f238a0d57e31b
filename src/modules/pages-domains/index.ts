import { defineModule } from '../../core/module/app-module';
import { Migration20261122120000PagesDomains } from './migrations/Migration20261122120000_pages_domains';
import { PagesDomain } from './pages-domain.entity';
import { PagesDomainResolver } from './pages-domain.resolver';
import { pagesDomainRoutes } from './pages-domain.rest';
import { seedPagesDomains } from './pages-domain.seed';

/** Custom domains and certificates of projects' pages sites (spec 4.24-4.29). */
export const pagesDomainsModule = defineModule({
  name: 'pages-domains',
  entities: [PagesDomain],
  migrations: [{ name: 'Migration20261122120000_pages_domains', class: Migration20261122120000PagesDomains }],
  resolvers: [PagesDomainResolver],
  routes: pagesDomainRoutes,
  seed: [seedPagesDomains],
});
