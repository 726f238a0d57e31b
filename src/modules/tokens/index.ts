import { defineModule } from '../../core/module/app-module';
import { PersonalAccessToken } from './personal-access-token.entity';
import { TokenResolver } from './token.resolver';
import { TokenLinksResolver } from './token-links.resolver';
import { tokenRoutes } from './token.rest';

export const tokensModule = defineModule({ name: 'tokens', entities: [PersonalAccessToken], resolvers: [TokenResolver, TokenLinksResolver], routes: tokenRoutes });
