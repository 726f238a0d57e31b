/** Expected key sets, copied from the spec and docs/gitlab-compatibility.md (never imported from src/). */
export const GROUP_KEYS = ['avatar_url', 'description', 'full_name', 'full_path', 'id', 'lfs_enabled', 'name', 'parent_id', 'path', 'request_access_enabled', 'visibility', 'web_url'].sort();
export const GROUP_DETAIL_KEYS = [...GROUP_KEYS, 'projects', 'shared_projects'].sort();
export const GROUP_UPDATE_KEYS = [...GROUP_KEYS, 'projects'].sort();
export const GROUP_SEARCH_KEYS = ['description', 'id', 'name', 'path'];
export const STATISTICS_KEYS = ['job_artifacts_size', 'lfs_objects_size', 'repository_size', 'storage_size'];
export const PROJECT_SIMPLE_KEYS = [
  'avatar_url', 'created_at', 'default_branch', 'description', 'forks_count', 'http_url_to_repo', 'id', 'last_activity_at', 'name',
  'name_with_namespace', 'path', 'path_with_namespace', 'ssh_url_to_repo', 'star_count', 'tag_list', 'web_url',
].sort();
export const PROJECT_KEYS = [
  ...PROJECT_SIMPLE_KEYS, 'archived', 'container_registry_enabled', 'creator_id', 'issues_enabled', 'jobs_enabled', 'merge_requests_enabled',
  'namespace', 'open_issues_count', 'public_jobs', 'request_access_enabled', 'shared_runners_enabled', 'shared_with_groups',
  'snippets_enabled', 'visibility', 'wiki_enabled',
].sort();
export const PROJECT_KEYS_WITH_TOKEN = [...PROJECT_KEYS, 'runners_token'].sort();
export const USER_BASIC_KEYS = ['avatar_url', 'id', 'name', 'state', 'username', 'web_url'];
export const USER_KEYS = [...USER_BASIC_KEYS, 'bio', 'created_at', 'linkedin', 'location', 'organization', 'skype', 'twitter', 'website_url'].sort();
export const USER_PUBLIC_KEYS = [
  ...USER_KEYS, 'can_create_group', 'can_create_project', 'color_scheme_id', 'confirmed_at', 'current_sign_in_at', 'email', 'external',
  'identities', 'last_activity_on', 'last_sign_in_at', 'projects_limit', 'theme_id', 'two_factor_enabled',
].sort();
export const USER_ADMIN_KEYS = [...USER_PUBLIC_KEYS, 'is_admin'].sort();
export const MEMBER_KEYS = ['access_level', 'avatar_url', 'expires_at', 'id', 'name', 'state', 'username', 'web_url'];
export const TOKEN_KEYS = ['active', 'created_at', 'expires_at', 'id', 'impersonation', 'name', 'revoked', 'scopes', 'user_id'];

export const keys = (o: object) => Object.keys(o).sort();
