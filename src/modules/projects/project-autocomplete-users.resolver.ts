import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { MaxItems } from '../../core/graphql/list-bound';
import { AUTOCOMPLETE_USERS_LIMIT, UserType, type User } from '../users';
import type { Project } from './project.entity';
import { projectTeamService } from './project-team.service';
import { ProjectType } from './project.type';

@Resolver(() => ProjectType)
export class ProjectAutocompleteUsersResolver {
  // A picker's field of one project (GitLab resolves it per object too): one statement for that project.
  @FieldResolver(() => [UserType], {
    nullable: true,
    description:
      'Search users for autocompletion: the users with access to the project (active ones), by name, at most 20.',
  })
  @MaxItems(AUTOCOMPLETE_USERS_LIMIT)
  autocompleteUsers(
    @Root() project: Project,
    @Ctx() ctx: RequestCtx,
    @Arg('search', () => String, {
      nullable: true,
      description:
        'Query to search users by name or username (words of 3 or more characters match substrings), or the exact e-mail.',
    })
    search?: string | null,
  ): Promise<User[]> {
    return projectTeamService.autocompleteUsers(ctx, project, search);
  }
}
