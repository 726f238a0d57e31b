import { defineModule } from '../../core/module/app-module';
import { User } from './user.entity';
import { UserResolver } from './user.resolver';
import { userRoutes } from './user.rest';

declare module '../../core/context/request-ctx' {
  /** ctx.user is a full User record on both surfaces. */
  interface CurrentUser extends User {}
}

export const usersModule = defineModule({ name: 'users', entities: [User], resolvers: [UserResolver], routes: userRoutes });
