import { loadByIds, nodeDef } from '../../core/graphql/node';
import { policy } from '../access';
import { defineModule } from '../../core/module/app-module';
import { Email } from './email.entity';
import { EmailResolver } from './email.resolver';
import { emailRoutes } from './email.rest';
import { Migration20261204120100Emails } from './migrations/Migration20261204120100_emails';

/** Secondary e-mail addresses of users (GitLab 10.3's /users/:id/emails, /user/emails). */
export const emailsModule = defineModule({
  name: 'emails',
  nodes: [
    nodeDef({
      type: 'Email',
      gidClass: 'Email',
      load: loadByIds(
        Email,
        (ctx, k) => policy.isAdmin(ctx.user) || k.userId === ctx.user?.id,
        (ctx) => !!ctx.user,
      ),
    }),
  ],
  entities: [Email],
  migrations: [{ name: 'Migration20261204120100_emails', class: Migration20261204120100Emails }],
  resolvers: [EmailResolver],
  routes: emailRoutes,
});
