import crypto from 'node:crypto';
import { TEST_SECRETS, type TestApp } from './test-app';

/**
 * Factories write straight to the database (fast, explicit) and return ids and tokens.
 * Visibility: 0 private, 10 internal, 20 public. Access: 10 guest … 50 owner.
 */
type Vis = 'private' | 'internal' | 'public';
const LEVEL: Record<Vis, number> = { private: 0, internal: 10, public: 20 };
let seq = 0;

async function one<T>(t: TestApp, sql: string, params: unknown[] = []): Promise<T> {
  const rows = (await t.orm.em.getConnection().execute(sql, params, 'all')) as T[];
  return rows[0];
}

export interface TestUser {
  id: number;
  username: string;
  token: string;
  namespaceId: number;
}

export async function createUser(
  t: TestApp,
  opts: { username?: string; admin?: boolean; external?: boolean; canCreateGroup?: boolean; name?: string } = {},
): Promise<TestUser> {
  seq += 1;
  const username = opts.username ?? `user${seq}_${crypto.randomBytes(3).toString('hex')}`;
  const u = await one<{ id: number }>(
    t,
    `insert into users (username, email, name, admin, external, can_create_group) values (?, ?, ?, ?, ?, ?) returning id`,
    [
      username,
      `${username}@example.com`,
      opts.name ?? `User ${username}`,
      !!opts.admin,
      !!opts.external,
      opts.canCreateGroup ?? true,
    ],
  );
  const ns = await one<{ id: number }>(
    t,
    `insert into namespaces (name, path, full_path, full_name, kind, owner_id) values (?, ?, ?, ?, 'user', ?) returning id`,
    [username, username, username, username, u.id],
  );
  await t.orm.em.getConnection().execute(`update namespaces set traversal_ids = array[id] where id = ?`, [ns.id]);
  await t.orm.em.getConnection().execute(`update users set namespace_id = ? where id = ?`, [ns.id, u.id]);
  const token = `tok-${crypto.randomBytes(12).toString('hex')}`;
  await t.orm.em
    .getConnection()
    .execute(
      `insert into personal_access_tokens (user_id, name, token_digest, scopes) values (?, 'test', ?, '{api}')`,
      [u.id, crypto.createHash('sha256').update(token).digest('hex')],
    );
  return { id: u.id, username, token, namespaceId: ns.id };
}

export interface TestGroup {
  id: number;
  path: string;
  fullPath: string;
  name: string;
}

export async function createGroup(
  t: TestApp,
  opts: { path?: string; name?: string; visibility?: Vis; parent?: TestGroup; description?: string } = {},
): Promise<TestGroup> {
  seq += 1;
  const path = opts.path ?? `group-${seq}`;
  const name = opts.name ?? `Group ${seq}`;
  const fullPath = opts.parent ? `${opts.parent.fullPath}/${path}` : path;
  const parentRow = opts.parent
    ? await one<{ traversal_ids: number[]; full_name: string }>(
        t,
        'select traversal_ids, full_name from namespaces where id = ?',
        [opts.parent.id],
      )
    : null;
  const g = await one<{ id: number }>(
    t,
    `insert into namespaces (name, path, full_path, full_name, kind, parent_id, visibility_level, description) values (?, ?, ?, ?, 'group', ?, ?, ?) returning id`,
    [
      name,
      path,
      fullPath,
      parentRow ? `${parentRow.full_name} / ${name}` : name,
      opts.parent?.id ?? null,
      LEVEL[opts.visibility ?? 'private'],
      opts.description ?? '',
    ],
  );
  await t.orm.em
    .getConnection()
    .execute(`update namespaces set traversal_ids = ?::int[] || id where id = ?`, [
      `{${(parentRow?.traversal_ids ?? []).join(',')}}`,
      g.id,
    ]);
  return { id: g.id, path, fullPath, name };
}

export interface TestProject {
  id: number;
  path: string;
  fullPath: string;
  name: string;
  /** The project's runners_token in clear (stored sealed). */
  runnersToken: string;
}

export async function createProject(
  t: TestApp,
  opts: {
    namespace: { id: number; fullPath?: string; username?: string };
    path?: string;
    name?: string;
    visibility?: Vis;
    archived?: boolean;
    createdAt?: Date;
    description?: string;
    sizes?: [number, number, number, number];
  },
): Promise<TestProject> {
  seq += 1;
  const path = opts.path ?? `project-${seq}`;
  const ns = await one<{ full_path: string }>(t, 'select full_path from namespaces where id = ?', [opts.namespace.id]);
  const [s, r, l, j] = opts.sizes ?? [0, 0, 0, 0];
  const runnersToken = `rt-${seq}-${crypto.randomBytes(6).toString('hex')}`;
  const p = await one<{ id: number }>(
    t,
    `insert into projects (name, path, namespace_id, visibility_level, archived, runners_token, runners_token_digest, created_at, updated_at, last_activity_at, description,
       storage_size, repository_size, lfs_objects_size, job_artifacts_size)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    [
      opts.name ?? `Project ${seq}`,
      path,
      opts.namespace.id,
      LEVEL[opts.visibility ?? 'private'],
      !!opts.archived,
      TEST_SECRETS.seal(runnersToken),
      TEST_SECRETS.digest(runnersToken),
      opts.createdAt ?? new Date(),
      opts.createdAt ?? new Date(),
      opts.createdAt ?? new Date(),
      opts.description ?? '',
      s,
      r,
      l,
      j,
    ],
  );
  return { id: p.id, path, fullPath: `${ns.full_path}/${path}`, name: opts.name ?? `Project ${seq}`, runnersToken };
}

export async function addGroupMember(
  t: TestApp,
  group: { id: number },
  user: { id: number },
  level: number,
): Promise<void> {
  await t.orm.em
    .getConnection()
    .execute('insert into group_members (group_id, user_id, access_level) values (?, ?, ?)', [
      group.id,
      user.id,
      level,
    ]);
}

export async function addProjectMember(
  t: TestApp,
  project: { id: number },
  user: { id: number },
  level: number,
): Promise<void> {
  await t.orm.em
    .getConnection()
    .execute('insert into project_members (project_id, user_id, access_level) values (?, ?, ?)', [
      project.id,
      user.id,
      level,
    ]);
}

export async function shareProject(
  t: TestApp,
  project: { id: number },
  group: { id: number },
  level: number,
): Promise<void> {
  await t.orm.em
    .getConnection()
    .execute('insert into project_group_links (project_id, group_id, group_access) values (?, ?, ?)', [
      project.id,
      group.id,
      level,
    ]);
}

export async function setCustomAttribute(t: TestApp, group: { id: number }, key: string, value: string): Promise<void> {
  await t.orm.em
    .getConnection()
    .execute('insert into group_custom_attributes (group_id, key, value) values (?, ?, ?)', [group.id, key, value]);
}

export async function queryOne<T>(t: TestApp, sql: string, params: unknown[] = []): Promise<T | undefined> {
  return one<T>(t, sql, params);
}
