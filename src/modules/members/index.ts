import { defineModule } from '../../core/module/app-module';
import { MemberResolver } from './member.resolver';
import { memberRestRoutes } from './member.rest';

/** The members API of groups and projects (the membership rows belong to the access module). */
export const membersModule = defineModule({ name: 'members', resolvers: [MemberResolver], routes: memberRestRoutes });
