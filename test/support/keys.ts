/** Expected key sets, copied from the spec and docs/gitlab-compatibility.md (never imported from src/). */
export const GROUP_KEYS = [
  'avatar_url',
  'description',
  'full_name',
  'full_path',
  'id',
  'lfs_enabled',
  'name',
  'parent_id',
  'path',
  'request_access_enabled',
  'visibility',
  'web_url',
].sort();
export const GROUP_DETAIL_KEYS = [...GROUP_KEYS, 'projects', 'shared_projects'].sort();
export const GROUP_UPDATE_KEYS = [...GROUP_KEYS, 'projects'].sort();
export const GROUP_SEARCH_KEYS = ['description', 'id', 'name', 'path'];
export const STATISTICS_KEYS = ['job_artifacts_size', 'lfs_objects_size', 'repository_size', 'storage_size'];
export const PROJECT_SIMPLE_KEYS = [
  'avatar_url',
  'created_at',
  'default_branch',
  'description',
  'forks_count',
  'http_url_to_repo',
  'id',
  'last_activity_at',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'ssh_url_to_repo',
  'star_count',
  'tag_list',
  'web_url',
].sort();
/** GitLab 10.3's Entities::Project of a group project (`owner` only for personal projects, `forked_from_project` only for forks). */
export const PROJECT_KEYS = [
  ...PROJECT_SIMPLE_KEYS,
  '_links',
  'archived',
  'ci_config_path',
  'container_registry_enabled',
  'creator_id',
  'import_error',
  'import_status',
  'issues_enabled',
  'jobs_enabled',
  'lfs_enabled',
  'merge_requests_enabled',
  'namespace',
  'only_allow_merge_if_all_discussions_are_resolved',
  'only_allow_merge_if_pipeline_succeeds',
  'open_issues_count',
  'printing_merge_request_link_enabled',
  'public_jobs',
  'request_access_enabled',
  'resolve_outdated_diff_discussions',
  'shared_runners_enabled',
  'shared_with_groups',
  'snippets_enabled',
  'visibility',
  'wiki_enabled',
].sort();
export const PROJECT_KEYS_WITH_TOKEN = [...PROJECT_KEYS, 'runners_token'].sort();
/** A personal project: Entities::Project with `owner`. */
export const PERSONAL_PROJECT_KEYS = [...PROJECT_KEYS, 'owner'].sort();
/** ProjectWithAccess (GET /projects, /projects/:id and the project lists, signed in): `permissions`. */
export const PROJECT_WITH_ACCESS_KEYS = [...PROJECT_KEYS, 'permissions'].sort();
export const USER_BASIC_KEYS = ['avatar_url', 'id', 'name', 'state', 'username', 'web_url'];
export const USER_KEYS = [
  ...USER_BASIC_KEYS,
  'bio',
  'created_at',
  'linkedin',
  'location',
  'organization',
  'skype',
  'twitter',
  'website_url',
].sort();
export const USER_PUBLIC_KEYS = [
  ...USER_KEYS,
  'can_create_group',
  'can_create_project',
  'color_scheme_id',
  'confirmed_at',
  'current_sign_in_at',
  'email',
  'external',
  'identities',
  'last_activity_on',
  'last_sign_in_at',
  'projects_limit',
  'theme_id',
  'two_factor_enabled',
].sort();
export const USER_ADMIN_KEYS = [...USER_PUBLIC_KEYS, 'is_admin'].sort();
export const MEMBER_KEYS = ['access_level', 'avatar_url', 'expires_at', 'id', 'name', 'state', 'username', 'web_url'];
export const TOKEN_KEYS = [
  'active',
  'created_at',
  'expires_at',
  'id',
  'impersonation',
  'name',
  'revoked',
  'scopes',
  'user_id',
];

export const keys = (o: object) => Object.keys(o).sort();
