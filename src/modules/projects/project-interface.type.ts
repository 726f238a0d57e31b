import { Field, ID, InterfaceType, Int, ObjectType, registerEnumType } from 'type-graphql';

/** GitLab's `ProjectPermissions` (the subset its project lists read): what the caller may do with the project. */
@ObjectType('ProjectUserPermissions', {
  description: 'What the caller may do with a project (GitLab: ProjectPermissions).',
})
export class ProjectUserPermissionsType {
  @Field(() => Boolean, { description: 'Archive or unarchive the project (Maintainer or above).' })
  archiveProject!: boolean;
  @Field(() => Boolean, { description: 'Delete the project (Owner).' }) removeProject!: boolean;
  @Field(() => Boolean, { description: "Open the project's settings page (Maintainer or above)." })
  viewEditPage!: boolean;
  @Field(() => Boolean, { description: 'The caller is an administrator.' }) adminAllResources!: boolean;
}

/** GitLab's `ProjectInterface`: the fields its project lists read through the interface. */
@InterfaceType('ProjectInterface', {
  description: 'Fields every project list item has (GitLab: ProjectInterface).',
  resolveType: () => 'Project',
})
export abstract class ProjectInterface {
  @Field(() => ID, { description: 'Global id: `gid://gitlab/Project/<id>`.' }) id!: string;
  @Field(() => String) name!: string;
  @Field(() => ID, { description: 'Full path of the project.' }) fullPath!: string;
  @Field(() => String) nameWithNamespace!: string;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field(() => String) webUrl!: string;
  @Field(() => ProjectUserPermissionsType, { description: 'What the caller may do with the project.' })
  userPermissions!: ProjectUserPermissionsType;
}

/** GitLab's `ProjectFeatureAccessLevel`: who may use a project feature. */
export enum ProjectFeatureAccessLevel {
  DISABLED = 'DISABLED',
  PRIVATE = 'PRIVATE',
  ENABLED = 'ENABLED',
}
registerEnumType(ProjectFeatureAccessLevel, {
  name: 'ProjectFeatureAccessLevel',
  description: 'Access level of a project feature.',
  valuesConfig: {
    DISABLED: { description: 'Not enabled for anyone.' },
    PRIVATE: { description: 'Enabled only for team members.' },
    ENABLED: { description: 'Enabled for everyone able to access the project.' },
  },
});

/** GitLab's `ProjectFeatureAccess`: a feature's access level as an integer (0, 10, 20) and as its name. */
@ObjectType('ProjectFeatureAccess', { description: 'The access level required to use a project feature.' })
export class ProjectFeatureAccessType {
  @Field(() => Int, { description: '0 DISABLED, 10 PRIVATE, 20 ENABLED.' }) integerValue!: number;
  @Field(() => ProjectFeatureAccessLevel) stringValue!: ProjectFeatureAccessLevel;
}

/** A feature switched on or off (GitLab 10.3's `*_enabled`): ENABLED (20) or DISABLED (0). */
export const featureAccess = (enabled: boolean): ProjectFeatureAccessType =>
  enabled
    ? { integerValue: 20, stringValue: ProjectFeatureAccessLevel.ENABLED }
    : { integerValue: 0, stringValue: ProjectFeatureAccessLevel.DISABLED };
