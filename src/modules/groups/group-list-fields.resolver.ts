import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { Reads } from '../../core/graphql/reads';
import { markdownToHtml } from '../../core/text/markdown';
import { AccessLevelType, accessLevelOf, groupsUserMayLeave, policy } from '../access';
import { namespacePolicy, type Namespace } from '../namespaces';
import { projectPolicy } from '../projects';
import { GroupPermissionsType, NamespaceProjectStatisticsType } from './group-interface.type';
import { groupPolicy } from './group.policy';
import { GroupType } from './group.type';

/** The caller's effective level in the group (membership here or in an ancestor; 0 anonymous), batched per request. */
const levelOf = (ctx: RequestCtx, g: Namespace): Promise<number> | number =>
  ctx.user ? ctx.loaders.groupLevel.load(g.id) : 0;

/** Which groups of a page the caller may leave: one statement for the page. */
async function loadLeavable(ctx: RequestCtx, ids: readonly number[]): Promise<boolean[]> {
  if (!ctx.user) return ids.map(() => false);
  const rows = await sqlRows<{ group_id: number }>(ctx.em, groupsUserMayLeave(Number(ctx.user.id), ids));
  const leavable = new Set(rows.map((r) => Number(r.group_id)));
  return ids.map((id) => leavable.has(id));
}

export const groupListFieldLoaders = (ctx: RequestCtx) => ({
  groupLeavable: new DataLoader<number, boolean>((ids) => loadLeavable(ctx, ids)),
});
type GroupListFieldLoaders = ReturnType<typeof groupListFieldLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends GroupListFieldLoaders {}
}

/**
 * The fields GitLab's group lists read (graphql_shared/fragments/group.fragment.graphql and
 * group_interface.fragment.graphql) beyond GitLab 10.3's: each from the group's row and the caller's
 * level, batched per page. Features not served answer what GitLab answers for a group without them
 * (docs/gitlab-frontend-documents.md, "Fields of features we do not serve").
 */
@Resolver(() => GroupType)
export class GroupListFieldsResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: 'The description rendered from Markdown to HTML (raw HTML in it is escaped).',
  })
  @Reads('description')
  descriptionHtml(@Root() g: Namespace): string {
    return markdownToHtml(g.description);
  }

  @FieldResolver(() => GroupPermissionsType, { description: 'Permissions for the current user on the group.' })
  @Reads('id')
  async userPermissions(@Root() g: Namespace, @Ctx() ctx: RequestCtx): Promise<GroupPermissionsType> {
    const [level, canLeave] = await Promise.all([
      levelOf(ctx, g),
      ctx.user ? ctx.loaders.groupLeavable.load(g.id) : false,
    ]);
    const owner = namespacePolicy.canAdminGroup(ctx.user, level);
    return {
      readGroup: true,
      createProjects: projectPolicy.canCreateProjectInGroup(ctx.user, level),
      removeGroup: owner,
      viewEditPage: owner,
      changeGroup: owner,
      archiveGroup: false,
      canLeave,
      adminAllResources: policy.isAdmin(ctx.user),
    };
  }

  @FieldResolver(() => AccessLevelType, {
    description:
      "The caller's highest access level in the group: membership here or in an ancestor (NO_ACCESS without one; a group shared with the caller's groups grants none here).",
  })
  @Reads('id')
  async maxAccessLevel(@Root() g: Namespace, @Ctx() ctx: RequestCtx): Promise<AccessLevelType> {
    return accessLevelOf(await levelOf(ctx, g));
  }

  @FieldResolver(() => NamespaceProjectStatisticsType, {
    nullable: true,
    description: "Storage summed over the group's own projects; administrators only (null for others).",
  })
  @Reads('id')
  async projectStatistics(
    @Root() g: Namespace,
    @Ctx() ctx: RequestCtx,
  ): Promise<NamespaceProjectStatisticsType | null> {
    if (!groupPolicy.canSeeStatistics(ctx.user)) return null;
    const s = await ctx.loaders.groupStatistics.load(g.id);
    return {
      buildArtifactsSize: s.jobArtifactsSize,
      lfsObjectsSize: s.lfsObjectsSize,
      packagesSize: 0,
      pipelineArtifactsSize: 0,
      repositorySize: s.repositorySize,
      snippetsSize: 0,
      storageSize: s.storageSize,
      uploadsSize: 0,
      wikiSize: 0,
    };
  }

  // Groups cannot be archived here, and deletion is immediate (no delayed deletion): GitLab's answers
  // for a group that is neither archived nor scheduled for deletion.
  @FieldResolver(() => Boolean, { nullable: true, description: 'false: groups cannot be archived here.' })
  @Reads('id')
  archived(@Root() _g: Namespace): boolean {
    return false;
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'false: groups are deleted at once here, none is scheduled for deletion.',
  })
  @Reads('id')
  markedForDeletion(@Root() _g: Namespace): boolean {
    return false;
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'false: deletion is immediate here.' })
  @Reads('id')
  isSelfDeletionInProgress(@Root() _g: Namespace): boolean {
    return false;
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'false: deletion is immediate here.' })
  @Reads('id')
  isSelfDeletionScheduled(@Root() _g: Namespace): boolean {
    return false;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'null: deletion is immediate here, as GitLab without delayed deletion answers.',
  })
  @Reads('id')
  permanentDeletionDate(@Root() _g: Namespace): string | null {
    return null;
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'false: subscriptions (billing) are not served here, as GitLab Community Edition answers.',
  })
  @Reads('id')
  isLinkedToSubscription(@Root() _g: Namespace): boolean {
    return false;
  }
}
