import { ProjectVisibleForksResolver, visibleForkLoaders } from './project-visible-forks';
import { ProjectStarrersFieldResolver, ProjectStarrersResolver, projectStarrerLoaders } from './project-starrers';
import { ProjectTransferResolver } from './project-transfer';
import { ProjectMemberImportResolver } from './project-member-import';
import { defineModule } from '../../core/module/app-module';
import { avatarDownload } from '../avatars';
import { namespaceRemoval } from '../namespaces';
import { joinProject } from './project-sql';
import { projectVisibility } from './project-visibility';
import { uncountForksUnder } from './forks-count';
import { nodeDef } from '../../core/graphql/node';
import { projectService } from './project.service';
import { ProjectGroupLink } from './project-group-link.entity';
import { ProjectStar } from './project-star.entity';
import { Project } from './project.entity';
import { projectLoaders } from './project.loaders';
import { ProjectLinksResolver } from './project-links.resolver';
import { ProjectResolver } from './project.resolver';
import { ProjectForkResolver } from './project-fork.resolver';
import { ProjectAutocompleteUsersResolver, projectAutocompleteLoaders } from './project-autocomplete-users.resolver';
import { UserProjectsResolver } from './user-projects.resolver';
import { AdminProjectsResolver } from './admin-projects.resolver';
import { ProjectListFieldsResolver } from './project-list-fields.resolver';
import { UserProjectListsResolver, userProjectListLoaders } from './user-project-lists.resolver';
import { projectRoutes, projectCustomAttributeRoutes } from './project.rest';
import { projectCustomAttributeEndpoints } from './project-custom-attributes';
import { Migration20261203140000ProjectsGrowthIndexes } from './migrations/Migration20261203140000_projects_growth_indexes';
import { Migration20261204090000ProjectForksAndSettings } from './migrations/Migration20261204090000_project_forks_and_settings';
import { Migration20261207090000ProjectsSearchTrgm } from './migrations/Migration20261207090000_projects_search_trgm';
import { Migration20261210090000ProjectsForksCountRecount } from './migrations/Migration20261210090000_projects_forks_count_recount';
import { Migration20261230090000PersonalProjectOwnerMemberships } from './migrations/Migration20261230090000_personal_project_owner_memberships';

// A namespace's removal takes its projects: their forks leave their sources' counts first.
namespaceRemoval.register(uncountForksUnder);

export const projectsModule = defineModule({
  name: 'projects',
  entities: [Project, ProjectGroupLink, ProjectStar],
  resolvers: [
    ProjectResolver,
    ProjectForkResolver,
    ProjectAutocompleteUsersResolver,
    ProjectLinksResolver,
    UserProjectsResolver,
    UserProjectListsResolver,
    ProjectListFieldsResolver,
    AdminProjectsResolver,
    ProjectStarrersResolver,
    ProjectStarrersFieldResolver,
    ProjectTransferResolver,
    ProjectMemberImportResolver,
    ProjectVisibleForksResolver,
    ...projectCustomAttributeEndpoints.resolvers,
  ],
  routes: [...projectRoutes, ...projectCustomAttributeRoutes],
  // GitLab's project avatar URL: readable by whoever may read the project.
  downloads: [
    avatarDownload(
      'project',
      (owner) => joinProject(owner, 'o'),
      (ctx) => projectVisibility(ctx, 'o'),
    ),
  ],
  loaders: [
    projectStarrerLoaders,
    projectLoaders,
    userProjectListLoaders,
    projectAutocompleteLoaders,
    visibleForkLoaders,
    projectCustomAttributeEndpoints.loaders,
  ],
  nodes: [
    nodeDef({ type: 'Project', gidClass: 'Project', load: projectService.visibleByIds }),
    nodeDef({ type: 'ProjectGroupLink', gidClass: 'ProjectGroupLink', load: projectService.visibleGroupLinks }),
  ],
  migrations: [
    { name: 'Migration20261203140000_projects_growth_indexes', class: Migration20261203140000ProjectsGrowthIndexes },
    {
      name: 'Migration20261204090000_project_forks_and_settings',
      class: Migration20261204090000ProjectForksAndSettings,
    },
    { name: 'Migration20261207090000_projects_search_trgm', class: Migration20261207090000ProjectsSearchTrgm },
    {
      name: 'Migration20261210090000_projects_forks_count_recount',
      class: Migration20261210090000ProjectsForksCountRecount,
    },
    {
      name: 'Migration20261230090000_personal_project_owner_memberships',
      class: Migration20261230090000PersonalProjectOwnerMemberships,
    },
  ],
  // Added by the runners module's migration; sealed and read here (project-runners-token.ts).
  sealed: [
    {
      table: 'projects',
      column: 'runners_token',
      rowKey: 'id',
      digestColumn: 'runners_token_digest',
      // A lost key: null, as GitLab's reset leaves it; a new one is made on the next read (project-runners-token.ts).
      resetLost: {
        note: "projects' runners registration tokens are new: read them again before registering project runners",
      },
    },
  ],
});

// The door: what other modules may use (docs/architecture.md, "Modules").
export { Project } from './project.entity';
export { preloadProjectRelations, withPreloadedRelations } from './project-preload';
export { projectIdByRunnersToken, resetProjectRunnersToken } from './project-runners-token';
export { projectSearch } from './project-search';
export { ProjectFilterArgs } from './project.inputs';
export { ProjectSimpleWire, ProjectWire, ProjectWithPublicWire, SharedWithGroupWire } from './project.presenter';
export { PROJECT_FILTER_PARAMS, projectShapeFor } from './project.rest';
export { projectAuditEntity, projectService } from './project.service';
export { ProjectPage, ProjectType, SharedWithGroupType } from './project.type';
export { projectPolicy } from './project.policy';
export { subtreeProjectUserIdsSql } from './project-team.service';
export { sharedProjectPagesOfGroups } from './group-shared-project-lists';
export { projectTransferService } from './project-transfer';
export { projectEvents, subtreeProjectIds } from './project.events';
export {
  capProjectVisibilityUnder,
  findProjects,
  joinProject,
  maxProjectVisibilityIn,
  projectAncestryRows,
  projectInvitedGroupRows,
  projectShareGroupIds,
  projectColumns,
  projectPageColumns,
  projectFromRow,
  projectIdsWithLevel,
  projectMatches,
  projectPathOrNameTakenIn,
  projectPathTakenIn,
  projectsOfNamespace,
  projectsById,
  projectsWithNamespaces,
} from './project-sql';
export {
  projectPagesByGroup,
  projectPagesByKey,
  projectsInGroup,
  projectsSharedWithGroup,
  storageByNamespace,
  type GroupProjectRows,
  type NamespaceStorage,
  type ProjectPageQuery,
} from './namespace-projects';
export {
  forgetAccess,
  groupVisibility,
  groupVisibilitySplit,
  memberProjects,
  ownGroups,
  projectVisibility,
  projectVisibilitySplit,
} from './project-visibility';
