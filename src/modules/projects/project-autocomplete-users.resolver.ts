import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { MaxItems } from '../../core/graphql/list-bound';
import { perParent } from '../../core/pagination/per-parent-pages';
import { AUTOCOMPLETE_USERS_LIMIT, UserType, type User } from '../users';
import type { Project } from './project.entity';
import { projectTeamService } from './project-team.service';
import { ProjectType } from './project.type';

interface AutocompleteArgs {
  search?: string | null;
}

export const projectAutocompleteLoaders = (ctx: RequestCtx) => ({
  projectAutocompleteUsers: perParent<AutocompleteArgs, User[]>((args, ids) =>
    projectTeamService.autocompleteUsers(ctx, ids, args.search),
  ),
});
type ProjectAutocompleteLoaders = ReturnType<typeof projectAutocompleteLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ProjectAutocompleteLoaders {}
}

@Resolver(() => ProjectType)
export class ProjectAutocompleteUsersResolver {
  /** The project is already visible; batched across the projects of a list (one statement per search). */
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
    return ctx.loaders.projectAutocompleteUsers.load({ parentId: project.id, args: { search } });
  }
}
