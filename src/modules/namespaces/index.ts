import { defineModule } from '../../core/module/app-module';
import { nodeDef } from '../../core/graphql/node';
import { namespaceService } from './namespace.service';
import { Namespace } from './namespace.entity';
import { namespaceLoaders } from './namespace.loaders';
import { NamespaceResolver } from './namespace.resolver';
import { namespaceRoutes } from './namespace.rest';

/** Namespaces: groups and personal (user) namespaces share one table (docs/gitlab-compatibility.md, "Namespaces"). */
export const namespacesModule = defineModule({
  name: 'namespaces',
  entities: [Namespace],
  resolvers: [NamespaceResolver],
  routes: namespaceRoutes,
  loaders: namespaceLoaders,
  nodes: [
    nodeDef<Namespace>({ type: 'Namespace', gidClass: 'Group', of: (n) => n.kind === 'group' }),
    nodeDef<Namespace>({
      type: 'Namespace',
      gidClass: 'Namespaces::UserNamespace',
      of: (n) => n.kind === 'user',
      load: namespaceService.visibleUserNamespaces,
    }),
  ],
});

// The door: what other modules may use (docs/architecture.md, "Modules").
export { Namespace } from './namespace.entity';
export { beforeNamespacesRemoved, namespaceRemoval, type NamespaceRemovalStep } from './namespace-removal';
export { NamespaceType } from './namespace.type';
export { namespacePolicy } from './namespace.policy';
export { namespaceService } from './namespace.service';
export {
  createPersonalNamespace,
  deleteNamespace,
  deletePersonalNamespaceOf,
  descendantIds,
  findGroup,
  findNamespace,
  findNamespaceByPathOrName,
  fullPathTakenByOther,
  getNamespace,
  groupAncestryRows,
  groupAndAncestorIds,
  groupIdByFullPath,
  groupIdsWhere,
  namespaceIdsByFullPath,
  namespaceSubtreesLike,
  groupsWithoutOtherOwner,
  joinNamespace,
  lockGroupsOwnedBy,
  lockNamespace,
  lockSubtrees,
  namespaceFromRow,
  namespaceFullPath,
  namespaceMatches,
  namespaceSatisfies,
  ownedNamespaceIds,
  personalNamespaceOwnerId,
  personalNamespaceOwners,
  renamePersonalNamespace,
  subtreeIds,
} from './namespace-sql';
export {
  capSubgroupVisibility,
  descendantGroupRows,
  findGroupBy,
  type GroupRowExtra,
  groupClaim,
  groupListRows,
  groupsByIds,
  lockShareWithGroupBelow,
  maxSubgroupVisibility,
  moveSubtree,
  newGroup,
  renameDescendants,
  subtreeDeepestFirst,
  type SubtreeGroupRow,
} from './group-rows';
export { lockAncestry, type LockedNamespace } from './namespace-lock';
export {
  ancestryOf,
  parentOf,
  groupLevelsSql,
  groupsWithAncestors,
  inMemberTree,
  levelsOf,
  memberTreeIds,
  ownedNamespaceIdArray,
} from './namespace-access';
