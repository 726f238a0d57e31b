import { loadByIds, nodeDef } from '../../core/graphql/node';
import { policy } from '../access';
import { defineModule } from '../../core/module/app-module';
import { Email } from './email.entity';
import { Migration20261204120100Emails } from './migrations/Migration20261204120100_emails';

/**
 * Secondary e-mail addresses of users: storage and GitLab 10.3's rules. Their routes (/users/:id/emails,
 * /user/emails) are the users module's, as in GitLab's users API.
 */
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
});

// The door: what other modules may use (docs/architecture.md, "Modules").
export { lockEmailAddress } from './email-address-lock';
export { Email } from './email.entity';
export { CreateEmailInput } from './email.inputs';
export { EmailWire } from './email.presenter';
export {
  emailService,
  normalizeEmail,
  secondaryEmailInUseByOther,
  type EmailOwner,
  type PrimaryEmailInUse,
} from './email.service';
export { EmailIdArg, EmailPage, EmailType } from './email.type';
export { primaryEmailChanged } from './primary-email';
