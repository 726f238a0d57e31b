import { bool, int, shape, str, strList } from '../../core/wire/wire';

/** GitLab's namespace entity (docs/gitlab-compatibility.md, "Namespaces"). */
export const NamespaceWire = shape('Namespace', {
  id: int(),
  name: str(),
  path: str(),
  kind: str(),
  full_path: str(),
  parent_id: int({ nullable: true }),
  // Later GitLab: groups the caller administers only; absent otherwise.
  members_count_with_descendants: int({ omitIfNull: true }),
});

/** GET /namespaces/:namespace/exists (later GitLab's `present :exists` and `present :suggests`). */
export const NamespaceExistsWire = shape('NamespaceExists', { exists: bool(), suggests: strList() });
