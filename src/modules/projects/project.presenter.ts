import { bool, int, list, lowerEnum, obj, shape, str, strList, time } from '../../core/wire/wire';
import { VISIBILITY_REST_VALUES } from '../access/visibility.type';

/** Wire forms of a project (spec 2.4, gitlab-behaviour §2.5). spec 2.4 lists the namespace as id, name, path, kind. */
export const NamespaceRefWire = shape('ProjectNamespace', {
  id: int('id'),
  name: str('name'),
  path: str('path'),
  kind: str('kind'),
});

export const SharedWithGroupWire = shape('SharedWithGroup', {
  group_id: int('groupId'),
  group_name: str('groupName'),
  group_full_path: str('groupFullPath'),
  group_access_level: int('groupAccessLevel'),
  expires_at: str('expiresAt', { nullable: true }),
});

const SIMPLE_FIELDS = {
  id: int('id'),
  description: str('description'),
  name: str('name'),
  name_with_namespace: str('nameWithNamespace'),
  path: str('path'),
  path_with_namespace: str('pathWithNamespace'),
  created_at: time('createdAt'),
  default_branch: str('defaultBranch', { nullable: true }),
  tag_list: strList('tagList'),
  ssh_url_to_repo: str('sshUrlToRepo'),
  http_url_to_repo: str('httpUrlToRepo'),
  web_url: str('webUrl'),
  avatar_url: str('avatarUrl', { nullable: true }),
  star_count: int('starCount'),
  forks_count: int('forksCount'),
  last_activity_at: time('lastActivityAt'),
};

/** `simple=true`: the reduced record, no visibility key. */
export const ProjectSimpleWire = shape('ProjectSimple', SIMPLE_FIELDS);

const FULL_FIELDS = {
  ...SIMPLE_FIELDS,
  archived: bool('archived'),
  visibility: lowerEnum('visibility', VISIBILITY_REST_VALUES),
  namespace: obj('namespace', NamespaceRefWire),
  issues_enabled: bool('issuesEnabled'),
  merge_requests_enabled: bool('mergeRequestsEnabled'),
  wiki_enabled: bool('wikiEnabled'),
  jobs_enabled: bool('jobsEnabled'),
  snippets_enabled: bool('snippetsEnabled'),
  container_registry_enabled: bool('containerRegistryEnabled'),
  shared_runners_enabled: bool('sharedRunnersEnabled'),
  creator_id: int('creatorId', { nullable: true }),
  open_issues_count: int('openIssuesCount'),
  public_jobs: bool('publicJobs'),
  shared_with_groups: list('sharedWithGroups', SharedWithGroupWire),
  request_access_enabled: bool('requestAccessEnabled'),
  runners_token: str('runnersToken', { omitIfNull: true }),
};

export const ProjectWire = shape('Project', FULL_FIELDS);

/** Projects inside the PUT /groups/:id response carry `public` too (spec 2.4). */
export const ProjectWithPublicWire = shape('ProjectWithPublic', { ...FULL_FIELDS, public: bool('public') });

export const ProjectGroupLinkWire = shape('ProjectGroupLink', {
  id: int('id'),
  project_id: int('projectId'),
  group_id: int('groupId'),
  group_access: int('groupAccess'),
  expires_at: str('expiresAt', { nullable: true }),
});
