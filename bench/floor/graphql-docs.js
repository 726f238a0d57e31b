// The fixed GraphQL documents of the bench (numeric ids as `id: databaseId`, since GraphQL ids are global ids): the equivalents of GET /groups and GET /projects (20 rows,
// fields in the REST order) and a dashboard-style nested query (groups → projects → sharedWithGroups).
const GROUP_FIELDS =
  'id: databaseId name path description visibility lfsEnabled avatarUrl webUrl requestAccessEnabled fullName fullPath parentId';
const PROJECT_FIELDS = [
  'id: databaseId description name nameWithNamespace path pathWithNamespace createdAt defaultBranch tagList sshUrlToRepo httpUrlToRepo webUrl',
  'avatarUrl starCount forksCount lastActivityAt archived visibility namespace { id: databaseId name path kind } issuesEnabled mergeRequestsEnabled',
  'wikiEnabled jobsEnabled snippetsEnabled containerRegistryEnabled sharedRunnersEnabled creatorId openIssuesCount publicJobs',
  'sharedWithGroups { groupId groupName groupFullPath groupAccessLevel expiresAt } requestAccessEnabled runnersToken',
].join(' ');

const DOCS = {
  groups: `{ groups(first: 20) { count nodes { ${GROUP_FIELDS} } } }`,
  projects: `{ projects(first: 20) { count nodes { ${PROJECT_FIELDS} } } }`,
  // Nested lists name their sizes (`first`, `limit`): the complexity cap counts 50 projects × 5 shares per group.
  // Group.projects is GitLab's connection (the group's own projects by id, archived included).
  dashboard:
    '{ groups(first: 20) { count nodes { id: databaseId fullPath projects(first: 50) { nodes { id: databaseId name pathWithNamespace visibility sharedWithGroups(limit: 5) { groupId groupFullPath groupAccessLevel } } } } } }',
};

module.exports = { DOCS };
