import { Field, ID, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';

/** GitLab's `GroupPermissions` (the abilities its group lists read): what the caller may do with the group. */
@ObjectType('GroupPermissions', { description: 'What the caller may do with a group (GitLab: GroupPermissions).' })
export class GroupPermissionsType {
  @Field(() => Boolean, { description: 'Read the group (true: the group is visible to the caller).' })
  readGroup!: boolean;
  @Field(() => Boolean, {
    description: 'Create projects in the group (Maintainer or above, as project creation here).',
  })
  createProjects!: boolean;
  @Field(() => Boolean, { description: 'Delete the group (Owner).' }) removeGroup!: boolean;
  @Field(() => Boolean, { description: "Open the group's settings page (Owner)." }) viewEditPage!: boolean;
  @Field(() => Boolean, { description: 'Transfer the group to another parent (Owner).' }) changeGroup!: boolean;
  @Field(() => Boolean, {
    description: 'Archive or unarchive the group: false, groups cannot be archived here.',
  })
  archiveGroup!: boolean;
  @Field(() => Boolean, {
    description: 'If `true`, the user can leave this group: a direct member who is not its last Owner.',
  })
  canLeave!: boolean;
  @Field(() => Boolean, { description: 'If `true`, the user is an instance administrator.' })
  adminAllResources!: boolean;
}

/** GitLab's `GroupInterface`: the fields its group lists read through the interface (`adminGroups`). */
@InterfaceType('GroupInterface', {
  description:
    'Fields every group list item has (GitLab: GroupInterface, which is a `Group` for callers who may read the group).',
  resolveType: () => 'Group',
})
export class GroupInterface {
  @Field(() => ID, { description: 'Global id: `gid://gitlab/Group/<id>`.' }) id!: string;
  @Field(() => String, { nullable: true, description: 'Full name of the group.' }) fullName!: string;
  @Field(() => ID, { description: 'Full path of the group.' }) fullPath!: string;
  @Field(() => String, { nullable: true, description: 'Name of the group.' }) name!: string;
  @Field(() => String, { nullable: true, description: 'Web URL of the group.' }) webUrl!: string;
  @Field(() => String, { nullable: true, description: 'Avatar URL of the group.' }) avatarUrl!: string | null;
  @Field(() => GroupPermissionsType, { description: 'Permissions for the current user on the group.' })
  userPermissions!: GroupPermissionsType;
}

/**
 * GitLab's `NamespaceProjectStatistics`: storage summed over the group's own projects. No packages,
 * pipeline artifacts, snippets, uploads or wikis are kept here, so those sizes are 0.
 */
@ObjectType('NamespaceProjectStatistics', {
  description: "Storage summed over the group's projects (administrators only).",
})
export class NamespaceProjectStatisticsType {
  @Field(() => Number, { nullable: true, description: 'Build artifacts size of the projects in bytes.' })
  buildArtifactsSize!: number;
  @Field(() => Number, { nullable: true, description: 'LFS object size of the projects in bytes.' })
  lfsObjectsSize!: number;
  @Field(() => Number, { nullable: true, description: 'Packages size in bytes: 0, packages are not served here.' })
  packagesSize!: number;
  @Field(() => Number, {
    nullable: true,
    description: 'CI/CD pipeline artifacts size in bytes: 0, none is kept here.',
  })
  pipelineArtifactsSize!: number;
  @Field(() => Number, { nullable: true, description: 'Repository size of the projects in bytes.' })
  repositorySize!: number;
  @Field(() => Number, { nullable: true, description: 'Snippets size in bytes: 0, snippets are not served here.' })
  snippetsSize!: number;
  @Field(() => Number, { nullable: true, description: 'Storage size of the projects in bytes.' })
  storageSize!: number;
  @Field(() => Number, { nullable: true, description: 'Uploads size in bytes: 0, uploads are not kept here.' })
  uploadsSize!: number;
  @Field(() => Number, { nullable: true, description: 'Wiki size in bytes: 0, wikis are not served here.' })
  wikiSize!: number;
}

/** GitLab's `GroupSort` (Types::Namespaces::GroupSortEnum). */
export enum GroupSort {
  SIMILARITY = 'SIMILARITY',
  CREATED_AT_ASC = 'CREATED_AT_ASC',
  CREATED_AT_DESC = 'CREATED_AT_DESC',
  UPDATED_AT_ASC = 'UPDATED_AT_ASC',
  UPDATED_AT_DESC = 'UPDATED_AT_DESC',
  NAME_ASC = 'NAME_ASC',
  NAME_DESC = 'NAME_DESC',
  PATH_ASC = 'PATH_ASC',
  PATH_DESC = 'PATH_DESC',
  ID_ASC = 'ID_ASC',
  ID_DESC = 'ID_DESC',
}
registerEnumType(GroupSort, {
  name: 'GroupSort',
  description: 'Values for sorting groups (ties by id in the same direction).',
  valuesConfig: {
    SIMILARITY: {
      description:
        'Most similar to the search query (path, then name); by id, newest first, without a search or a signed-in caller.',
    },
    CREATED_AT_ASC: { description: 'Sort by created at, ascending order.' },
    CREATED_AT_DESC: { description: 'Sort by created at, descending order.' },
    UPDATED_AT_ASC: { description: 'Sort by updated at, ascending order.' },
    UPDATED_AT_DESC: { description: 'Sort by updated at, descending order.' },
    NAME_ASC: { description: 'Sort by name, ascending order.' },
    NAME_DESC: { description: 'Sort by name, descending order.' },
    PATH_ASC: { description: 'Sort by path, ascending order.' },
    PATH_DESC: { description: 'Sort by path, descending order.' },
    ID_ASC: { description: 'Sort by ID, ascending order.' },
    ID_DESC: { description: 'Sort by ID, descending order.' },
  },
});
