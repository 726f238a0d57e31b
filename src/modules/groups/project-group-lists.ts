import { Args, ArgsType, Ctx, Field, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { requireUser } from '../../core/auth/guards';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import { makePage, normalizePage, PageArgs, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { ACCESS_LEVEL_VALUE, AccessLevelEnum } from '../access';
import type { Namespace } from '../namespaces';
import { ProjectType, type Project } from '../projects';
import { listGroups, listGroupsBatched } from './group-list.query';
import { GroupOrderBy } from './group.inputs';
import { GroupPage } from './group.type';
import {
  invitedGroupsMatch,
  mayAdminProject,
  projectGroupsMatch,
  shareLocked,
  shareTargetScope,
} from './project-group-lists.query';

const SEARCH = 'Name or path; substring for 3+ characters, exact otherwise (case-insensitive).';

/** `Project.shareTargets`, and the search of REST's transfer and share locations. */
@ArgsType()
export class ShareTargetsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: SEARCH }) search?: string;
}

/** `Project.groups` (ours; GitLab's REST GET /projects/:id/groups, Projects::GroupsFinder). */
@ArgsType()
export class ProjectGroupListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: SEARCH }) search?: string;
  @Field(() => [Int], { nullable: true, description: 'Group ids to leave out.' }) skipGroups?: number[];
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: 'Also the groups the project is shared with.',
  })
  withShared?: boolean;
  @Field(() => AccessLevelEnum, {
    nullable: true,
    description: 'With withShared: only the groups the project is shared with at this access level or above.',
  })
  sharedMinAccessLevel?: AccessLevelEnum;
}

/** `Project.invitedGroups` (ours; GitLab's REST GET /projects/:id/invited_groups, shaped as `Group.sharedGroups`). */
@ArgsType()
export class InvitedGroupsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: SEARCH }) search?: string;
  @Field(() => AccessLevelEnum, {
    nullable: true,
    description:
      "Only the groups where the caller's access level (membership there or above) is at least this; none for an anonymous caller.",
  })
  minAccessLevel?: AccessLevelEnum;
}

const levelOf = (level: AccessLevelEnum | null | undefined) =>
  level === undefined || level === null ? undefined : ACCESS_LEVEL_VALUE[level];

/** One round trip per argument set, whatever the number of projects (a project list's page). */
export const projectGroupListLoaders = (ctx: RequestCtx) => ({
  projectGroupLists: perParentPages<ProjectGroupListArgs, Namespace>((args, ids) =>
    listGroupsBatched(
      ctx,
      { search: args.search, skipGroups: args.skipGroups },
      { match: projectGroupsMatch('page_keys.k', args.withShared, levelOf(args.sharedMinAccessLevel)) },
      ids,
      args,
    ),
  ),
  projectInvitedGroupLists: perParentPages<InvitedGroupsArgs, Namespace>((args, ids) =>
    listGroupsBatched(
      ctx,
      { search: args.search },
      { match: invitedGroupsMatch(ctx.user, 'page_keys.k', levelOf(args.minAccessLevel)) },
      ids,
      args,
    ),
  ),
  /** The targets depend on the caller only: one list, the same page for every project that may share. */
  projectShareTargets: perParentPages<ShareTargetsArgs, Namespace>(async (args, ids) => {
    const list = { ...args, allAvailable: true, orderBy: GroupOrderBy.PATH };
    const page = await listGroups(ctx, list, shareTargetScope(requireUser(ctx)));
    return new Map(ids.map((id) => [id, page]));
  }),
});
type ProjectGroupListLoaders = ReturnType<typeof projectGroupListLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ProjectGroupListLoaders {}
}

/** A project's group lists as its fields (ours: GitLab's GraphQL has none); the parent is already visible. */
@Resolver(() => ProjectType)
export class ProjectGroupListsResolver {
  @FieldResolver(() => GroupPage, {
    description:
      "The project's group and its ancestors, and with `withShared` the groups it is shared with, that the caller may see, by name (ours).",
  })
  @Reads('id')
  groups(@Root() p: Project, @Args() args: ProjectGroupListArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    return ctx.loaders.projectGroupLists.load({ parentId: p.id, args: { ...args } });
  }

  @FieldResolver(() => GroupPage, {
    description:
      "The groups the project is shared with (invited to it) that the caller may see, by name (ours; `sharedWithGroups` gives each share's access level and expiry).",
  })
  @Reads('id')
  invitedGroups(@Root() p: Project, @Args() args: InvitedGroupsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    return ctx.loaders.projectInvitedGroupLists.load({ parentId: p.id, args: { ...args } });
  }

  @FieldResolver(() => GroupPage, {
    nullable: true,
    description:
      "Groups the current user can share this project with, by path (ours, modelled on GitLab's `Project.forkTargets`): the groups they are a member of and those below; every group for an administrator; none while the project's group locks sharing. Null unless the caller may administer the project.",
  })
  @Reads('id', 'namespaceId')
  async shareTargets(
    @Root() p: Project,
    @Args() args: ShareTargetsArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Namespace> | null> {
    const [mayAdmin, locked] = await Promise.all([mayAdminProject(ctx, p), shareLocked(ctx, p)]);
    if (!mayAdmin) return null;
    if (locked) return makePage<Namespace>([], 0, normalizePage(args));
    return ctx.loaders.projectShareTargets.load({ parentId: p.id, args: { ...args } });
  }
}
