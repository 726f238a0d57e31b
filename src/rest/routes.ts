import { groupRoutes } from '../modules/groups/group.rest';
import { memberRestRoutes } from '../modules/members/member.rest';
import { projectRoutes } from '../modules/projects/project.rest';
import { tokenRoutes } from '../modules/tokens/token.rest';
import { userRoutes } from '../modules/users/user.rest';
import type { RouteDef } from './route';

/**
 * The route table: every /api/v4 route, from each module's *.rest.ts. Order matters where express
 * paths overlap (static segments before parameters), as in GitLab's Grape mounts.
 */
export const REST_ROUTES: RouteDef[] = [...userRoutes, ...tokenRoutes, ...groupRoutes, ...memberRestRoutes, ...projectRoutes];
