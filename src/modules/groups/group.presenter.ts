import { bool, int, list, lowerEnum, num, obj, shape, str } from '../../core/wire/wire';
import { VISIBILITY_REST_VALUES } from '../access/visibility.type';
import { ProjectWire, ProjectWithPublicWire } from '../projects/project.presenter';

/** Wire forms of a group (spec 2.3, gitlab-behaviour §2.2). */
export const GroupStatisticsWire = shape('GroupStatistics', {
  storage_size: num('storageSize'),
  repository_size: num('repositorySize'),
  lfs_objects_size: num('lfsObjectsSize'),
  job_artifacts_size: num('jobArtifactsSize'),
});

const GROUP_FIELDS = {
  id: int('id'),
  name: str('name'),
  path: str('path'),
  description: str('description'),
  visibility: lowerEnum('visibility', VISIBILITY_REST_VALUES),
  lfs_enabled: bool('lfsEnabled'),
  avatar_url: str('avatarUrl', { nullable: true }),
  web_url: str('webUrl'),
  request_access_enabled: bool('requestAccessEnabled'),
  full_name: str('fullName'),
  full_path: str('fullPath'),
  parent_id: int('parentId', { nullable: true }),
};

/** List form; `statistics` only when an administrator asked for it (absent otherwise, not null). */
export const GroupWire = shape('Group', {
  ...GROUP_FIELDS,
  statistics: obj('statistics', GroupStatisticsWire, { includeIf: 'statistics', omitIfNull: true }),
});

/** GET /groups?search=: the reduced record of spec 2.3. */
export const GroupSearchHitWire = shape('GroupSearchHit', {
  id: int('id'),
  name: str('name'),
  path: str('path'),
  description: str('description'),
});

/** GET /groups/:id, POST /groups, transfer: with projects and shared_projects. */
export const GroupDetailWire = shape('GroupDetail', {
  ...GROUP_FIELDS,
  projects: list('projects', ProjectWire),
  shared_projects: list('sharedProjects', ProjectWire),
});

/** PUT /groups/:id: with projects (carrying `public`), no shared_projects (spec 2.3, 2.4). */
export const GroupUpdateWire = shape('GroupUpdate', {
  ...GROUP_FIELDS,
  projects: list('projects', ProjectWithPublicWire),
});

export const CustomAttributeWire = shape('CustomAttribute', { key: str('key'), value: str('value') });
