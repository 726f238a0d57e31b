import { loadByIds, nodeDef } from '../../core/graphql/node';
import { policy } from '../access/policy';
import { defineModule } from '../../core/module/app-module';
import { PersonalAccessToken } from './personal-access-token.entity';
import { TokenResolver } from './token.resolver';
import { TokenLinksResolver } from './token-links.resolver';
import { tokenRoutes } from './token.rest';

export const tokensModule = defineModule({ name: 'tokens',
  nodes: [nodeDef({ type: 'ImpersonationToken', gidClass: 'PersonalAccessToken', load: loadByIds(PersonalAccessToken, (_ctx, t) => t.impersonation, (ctx) => policy.isAdmin(ctx.user)) })], entities: [PersonalAccessToken], resolvers: [TokenResolver, TokenLinksResolver], routes: tokenRoutes });
