import { bool, int, list, lowerEnum, num, obj, shape, str, strList, time } from '../../core/wire/wire';
import { VISIBILITY_REST_VALUES } from '../access';
import { UserBasicWire } from '../users';

/**
 * Wire forms of a project (spec 2.4; docs/gitlab-compatibility.md, "Projects and members"). spec 2.4
 * lists the namespace as id, name, path, kind; GitLab 10.3's NamespaceBasic (lib/api/entities.rb) also
 * has full_path and parent_id.
 */
export const NamespaceRefWire = shape('ProjectNamespace', {
  id: int(),
  name: str(),
  path: str(),
  kind: str(),
  full_path: str(),
  parent_id: int({ nullable: true }),
});

export const SharedWithGroupWire = shape('SharedWithGroup', {
  group_id: int(),
  group_name: str(),
  group_full_path: str(),
  group_access_level: int(),
  expires_at: str({ nullable: true }),
});

const SIMPLE_FIELDS = {
  id: int(),
  description: str(),
  name: str(),
  name_with_namespace: str(),
  path: str(),
  path_with_namespace: str(),
  created_at: time(),
  default_branch: str({ nullable: true }),
  tag_list: strList(),
  ssh_url_to_repo: str(),
  http_url_to_repo: str(),
  web_url: str(),
  avatar_url: str({ nullable: true }),
  star_count: int(),
  forks_count: int(),
  last_activity_at: time(),
};

/** `simple=true`: the reduced record, no visibility key. */
export const ProjectSimpleWire = shape('ProjectSimple', SIMPLE_FIELDS);

/** GitLab 10.3's Project `_links`: API URLs by id; `issues` and `merge_requests` only when the feature is on. */
export const ProjectLinksWire = shape('ProjectLinks', {
  self: str(),
  issues: str({ omitIfNull: true }),
  merge_requests: str({ omitIfNull: true }),
  repo_branches: str(),
  labels: str(),
  events: str(),
  members: str(),
});

/** ProjectWithAccess `permissions.*_access` (GitLab 10.3's MemberAccess). */
export const MemberAccessWire = shape('MemberAccess', {
  access_level: int(),
  notification_level: int({ nullable: true }),
});
export const ProjectPermissionsWire = shape('ProjectPermissions', {
  project_access: obj(MemberAccessWire, { nullable: true }),
  group_access: obj(MemberAccessWire, { nullable: true }),
});

export const ProjectStatisticsWire = shape('ProjectStatistics', {
  commit_count: num(),
  storage_size: num(),
  repository_size: num(),
  lfs_objects_size: num(),
  job_artifacts_size: num(),
});

// Keys in GitLab 10.3's Entities::Project order where this service already had them nearby.
const FULL_FIELDS = {
  ...SIMPLE_FIELDS,
  _links: obj('links', ProjectLinksWire),
  archived: bool(),
  visibility: lowerEnum(VISIBILITY_REST_VALUES),
  // Personal projects only (10.3: `unless: project.group`).
  owner: obj(UserBasicWire, { omitIfNull: true }),
  resolve_outdated_diff_discussions: bool(),
  namespace: obj(NamespaceRefWire),
  // Forks only (10.3: `if: project.forked?`), and only when the caller may see the source (later GitLab's rule).
  forked_from_project: obj(ProjectSimpleWire, { omitIfNull: true }),
  import_status: str(),
  import_error: str({ nullable: true }),
  issues_enabled: bool(),
  merge_requests_enabled: bool(),
  wiki_enabled: bool(),
  jobs_enabled: bool(),
  snippets_enabled: bool(),
  container_registry_enabled: bool(),
  shared_runners_enabled: bool(),
  lfs_enabled: bool(),
  creator_id: int({ nullable: true }),
  open_issues_count: int(),
  public_jobs: bool(),
  ci_config_path: str({ nullable: true }),
  shared_with_groups: list(SharedWithGroupWire),
  only_allow_merge_if_pipeline_succeeds: bool(),
  request_access_enabled: bool(),
  only_allow_merge_if_all_discussions_are_resolved: bool(),
  printing_merge_request_link_enabled: bool(),
  runners_token: str({ omitIfNull: true }),
  // `statistics=true` only (absent otherwise, not null), GitLab 10.3's Entities::ProjectStatistics.
  statistics: obj(ProjectStatisticsWire, { includeIf: 'statistics', omitIfNull: true }),
};

export const ProjectWire = shape('Project', FULL_FIELDS);

/** GitLab 10.3's ProjectWithAccess: GET /projects, /projects/:id and the other project lists for signed-in callers. */
export const ProjectWithAccessWire = shape('ProjectWithAccess', {
  ...FULL_FIELDS,
  permissions: obj(ProjectPermissionsWire),
});

/** Projects inside the PUT /groups/:id response carry `public` too (spec 2.4). */
export const ProjectWithPublicWire = shape('ProjectWithPublic', { ...FULL_FIELDS, public: bool() });

export const ProjectGroupLinkWire = shape('ProjectGroupLink', {
  id: int(),
  project_id: int(),
  group_id: int(),
  group_access: int(),
  expires_at: str({ nullable: true }),
});
