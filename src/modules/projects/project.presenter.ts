import { bool, int, list, lowerEnum, obj, shape, str, strList, time } from '../../core/wire/wire';
import { VISIBILITY_REST_VALUES } from '../access/visibility.type';

/**
 * Wire forms of a project (spec 2.4; docs/gitlab-compatibility.md, "Projects and members"). spec 2.4
 * lists the namespace as id, name, path, kind; GitLab 10.3's NamespaceBasic (lib/api/entities.rb) also
 * has full_path and parent_id (issue 21).
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

const FULL_FIELDS = {
  ...SIMPLE_FIELDS,
  archived: bool(),
  visibility: lowerEnum(VISIBILITY_REST_VALUES),
  namespace: obj(NamespaceRefWire),
  issues_enabled: bool(),
  merge_requests_enabled: bool(),
  wiki_enabled: bool(),
  jobs_enabled: bool(),
  snippets_enabled: bool(),
  container_registry_enabled: bool(),
  shared_runners_enabled: bool(),
  creator_id: int({ nullable: true }),
  open_issues_count: int(),
  public_jobs: bool(),
  shared_with_groups: list(SharedWithGroupWire),
  request_access_enabled: bool(),
  runners_token: str({ omitIfNull: true }),
};

export const ProjectWire = shape('Project', FULL_FIELDS);

/** Projects inside the PUT /groups/:id response carry `public` too (spec 2.4). */
export const ProjectWithPublicWire = shape('ProjectWithPublic', { ...FULL_FIELDS, public: bool() });

export const ProjectGroupLinkWire = shape('ProjectGroupLink', {
  id: int(),
  project_id: int(),
  group_id: int(),
  group_access: int(),
  expires_at: str({ nullable: true }),
});
