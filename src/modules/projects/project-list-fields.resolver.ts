import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Loaded } from '../../core/context/peek-loader';
import { Reads } from '../../core/graphql/reads';
import { markdownToHtml } from '../../core/text/markdown';
import { AccessLevelType, accessLevelOf, policy } from '../access';
import type { Project } from './project.entity';
import { ProjectType } from './project.type';
import { projectPolicy } from './project.policy';
import { ProjectFeatureAccessType, ProjectUserPermissionsType, featureAccess } from './project-interface.type';

/** The caller's access level in the project (0 for anonymous callers and non-members), batched per request. */
const levelOf = (ctx: RequestCtx, p: Project): Promise<number> | number =>
  ctx.user ? ctx.loaders.projectLevel.load(p.id) : 0;

/**
 * The fields GitLab's project lists read (graphql_shared/fragments/project.fragment.graphql) beyond
 * GitLab 10.3's: each computed from the project's row and the caller's access level (one batch per page).
 * Fields of features this service does not serve answer what GitLab answers for a project without them
 * (docs/gitlab-frontend-documents.md, "Fields of features we do not serve").
 */
@Resolver(() => ProjectType)
export class ProjectListFieldsResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: 'The description rendered from Markdown to HTML (raw HTML in it is escaped).',
  })
  @Reads('description')
  descriptionHtml(@Root() p: Project): string {
    return markdownToHtml(p.description);
  }

  @FieldResolver(() => ProjectUserPermissionsType, { description: 'What the caller may do with the project.' })
  @Reads('id')
  async userPermissions(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<ProjectUserPermissionsType> {
    const level = await levelOf(ctx, p);
    return {
      archiveProject: projectPolicy.canAdminProject(ctx.user, level),
      removeProject: projectPolicy.canDeleteProject(ctx.user, level),
      viewEditPage: projectPolicy.canAdminProject(ctx.user, level),
      adminAllResources: policy.isAdmin(ctx.user),
    };
  }

  @FieldResolver(() => AccessLevelType, {
    description: "The caller's highest access level in the project (NO_ACCESS without a membership).",
  })
  @Reads('id')
  async maxAccessLevel(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<AccessLevelType> {
    return accessLevelOf(await levelOf(ctx, p));
  }

  @FieldResolver(() => String, { nullable: true, description: "Path of the project's settings page." })
  @Reads('path', 'namespaceId')
  editPath(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<string> {
    const root = new URL(ctx.externalUrl).pathname.replace(/\/$/, '');
    return ctx.loaders.namespace.map(p.namespaceId, (ns) => `${root}/${ns?.fullPath}/${p.path}/edit`);
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'The project itself is archived (groups are never archived here, so this equals `archived`).',
  })
  @Reads('archived')
  isSelfArchived(@Root() p: Project): boolean {
    return p.archived;
  }

  @FieldResolver(() => ProjectFeatureAccessType, { nullable: true, description: 'Who may use issues.' })
  @Reads('issuesEnabled')
  issuesAccessLevel(@Root() p: Project): ProjectFeatureAccessType {
    return featureAccess(p.issuesEnabled);
  }

  @FieldResolver(() => ProjectFeatureAccessType, { nullable: true, description: 'Who may use merge requests.' })
  @Reads('mergeRequestsEnabled')
  mergeRequestsAccessLevel(@Root() p: Project): ProjectFeatureAccessType {
    return featureAccess(p.mergeRequestsEnabled);
  }

  @FieldResolver(() => ProjectFeatureAccessType, {
    nullable: true,
    description: 'Who may fork the project: ENABLED, everyone who may see it (forking has no switch here).',
  })
  @Reads('id')
  forkingAccessLevel(@Root() _p: Project): ProjectFeatureAccessType {
    return featureAccess(true);
  }

  // Merge requests are not served: none is open. GitLab answers null where the caller may not read them.
  @FieldResolver(() => Int, {
    nullable: true,
    description:
      'Open merge requests: 0 (merge requests are not served here, so none is open); null when merge requests are disabled, as GitLab.',
  })
  @Reads('mergeRequestsEnabled')
  openMergeRequestsCount(@Root() p: Project): number | null {
    return p.mergeRequestsEnabled ? 0 : null;
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'false: the CI/CD Catalog is not served here, so no project is a catalog resource.',
  })
  @Reads('id')
  isCatalogResource(@Root() _p: Project): boolean {
    return false;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: "null: the project is no CI/CD Catalog resource (GitLab's answer for such a project).",
  })
  @Reads('id')
  exploreCatalogPath(@Root() _p: Project): string | null {
    return null;
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'false: the project has no published CI/CD Catalog resource (the catalog is not served here).',
  })
  @Reads('id')
  isPublished(@Root() _p: Project): boolean {
    return false;
  }

  // Deletion is immediate here (no delayed deletion): no project is ever scheduled or being deleted.
  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'false: projects and groups are deleted at once here, none is scheduled for deletion.',
  })
  @Reads('id')
  markedForDeletion(@Root() _p: Project): boolean {
    return false;
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'false: deletion is immediate here.' })
  @Reads('id')
  isSelfDeletionInProgress(@Root() _p: Project): boolean {
    return false;
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'false: deletion is immediate here.' })
  @Reads('id')
  isSelfDeletionScheduled(@Root() _p: Project): boolean {
    return false;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'null: deletion is immediate here, as GitLab without delayed deletion answers.',
  })
  @Reads('id')
  permanentDeletionDate(@Root() _p: Project): string | null {
    return null;
  }
}
