import { bool, int, list, lowerEnum, num, obj, shape, str } from '../../core/wire/wire';
import { VISIBILITY_REST_VALUES } from '../access';
import { ProjectWire, ProjectWithPublicWire, SharedWithGroupWire } from '../projects';

/** Wire forms of a group (spec 2.3; docs/gitlab-compatibility.md, "Groups"). */
export const GroupStatisticsWire = shape('GroupStatistics', {
  storage_size: num(),
  repository_size: num(),
  lfs_objects_size: num(),
  job_artifacts_size: num(),
});

const GROUP_FIELDS = {
  id: int(),
  name: str(),
  path: str(),
  description: str(),
  visibility: lowerEnum(VISIBILITY_REST_VALUES),
  lfs_enabled: bool(),
  avatar_url: str({ nullable: true }),
  web_url: str(),
  request_access_enabled: bool(),
  full_name: str(),
  full_path: str(),
  parent_id: int({ nullable: true }),
};

/** List form; `statistics` only when an administrator asked for it (absent otherwise, not null). */
export const GroupWire = shape('Group', {
  ...GROUP_FIELDS,
  statistics: obj(GroupStatisticsWire, { includeIf: 'statistics', omitIfNull: true }),
});

/** GET /groups?search=: the reduced record of spec 2.3. */
export const GroupSearchHitWire = shape('GroupSearchHit', {
  id: int(),
  name: str(),
  path: str(),
  description: str(),
});

/** GET /groups/:id, POST /groups, transfer: with projects and shared_projects. */
export const GroupDetailWire = shape('GroupDetail', {
  ...GROUP_FIELDS,
  projects: list('detailProjects', ProjectWire),
  shared_projects: list('detailSharedProjects', ProjectWire),
});

/** POST /groups/:id/share (later GitLab): the detail form with the groups it is shared with. */
export const GroupDetailWithSharesWire = shape('GroupDetailWithShares', {
  ...GROUP_FIELDS,
  projects: list('detailProjects', ProjectWire),
  shared_projects: list('detailSharedProjects', ProjectWire),
  shared_with_groups: list(SharedWithGroupWire),
});

/** PUT /groups/:id: with projects (carrying `public`), no shared_projects (spec 2.3, 2.4). */
export const GroupUpdateWire = shape('GroupUpdate', {
  ...GROUP_FIELDS,
  projects: list('detailProjects', ProjectWithPublicWire),
});

/** Later GitLab's Entities::PublicGroupDetails (GET /projects/:id/groups). */
export const PublicGroupDetailsWire = shape('PublicGroupDetails', {
  id: int(),
  web_url: str(),
  name: str(),
  avatar_url: str({ nullable: true }),
  full_name: str(),
  full_path: str(),
});
