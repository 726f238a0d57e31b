import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import type { SeedEnv } from '../../core/module/app-module';
import { groupService } from '../groups';
import { customAttributeStore } from '../custom-attributes';
import { memberService } from '../members';
import { projectService } from '../projects';
import { userService } from '../users';
import { User } from '../users';
import { Visibility } from '../access';

/**
 * The demo dataset, written through the same services as the API (so it obeys every rule):
 * users of every kind, a nested group tree of every visibility with members at each level,
 * personal and group projects, an archived project, a share, storage statistics, custom attributes.
 * Idempotent: it does nothing when the demo users exist.
 */
export async function seedDemo(env: SeedEnv): Promise<void> {
  const { em, log } = env;
  const root = await em.findOneOrFail(User, { username: 'root' });
  if (await em.findOne(User, { username: 'alice' })) {
    log('demo data already present (user alice exists): skipped');
    return;
  }
  const as = (user: User): RequestCtx => env.as(user);
  const admin = as(root);
  const mk = (username: string, name: string, extra: Record<string, unknown> = {}) =>
    userService.create(admin, { username, name, email: `${username}@example.com`, password: 'password123', ...extra });
  const alice = await mk('alice', 'Alice Owner');
  const bob = await mk('bob', 'Bob Developer');
  const carol = await mk('carol', 'Carol Guest');
  const dave = await mk('dave', 'Dave External', { external: true });
  await mk('erin', 'Erin NoGroups', { canCreateGroup: false });

  const a = as(alice);
  const acme = await groupService.create(a, {
    name: 'ACME',
    path: 'acme',
    visibility: Visibility.PUBLIC,
    description: 'The ACME corporation',
  });
  const platform = await groupService.create(a, {
    name: 'Platform',
    path: 'platform',
    parentId: acme.id,
    visibility: Visibility.INTERNAL,
  });
  const infra = await groupService.create(a, {
    name: 'Infra',
    path: 'infra',
    parentId: platform.id,
    visibility: Visibility.PRIVATE,
  });
  const web = await groupService.create(a, {
    name: 'Web',
    path: 'web',
    parentId: acme.id,
    visibility: Visibility.PUBLIC,
  });
  const lab = await groupService.create(admin, {
    name: 'Secret Lab',
    path: 'secret-lab',
    visibility: Visibility.PRIVATE,
  });
  const community = await groupService.create(admin, {
    name: 'Community',
    path: 'community',
    visibility: Visibility.INTERNAL,
  });

  await memberService.add(a, 'group', String(platform.id), { userId: bob.id, accessLevel: 30 });
  await memberService.add(admin, 'group', String(lab.id), { userId: carol.id, accessLevel: 10 });
  await memberService.add(a, 'group', String(web.id), { userId: dave.id, accessLevel: 20 });
  await memberService.add(admin, 'group', String(community.id), { userId: alice.id, accessLevel: 40 });

  const project = (ctx: RequestCtx, namespaceId: number, name: string, visibility: Visibility, description = '') =>
    projectService.create(ctx, { name, namespaceId, visibility, description, tagList: ['demo'] });
  const website = await project(a, web.id, 'Website', Visibility.PUBLIC, 'Public marketing site');
  await project(a, platform.id, 'API', Visibility.INTERNAL, 'Internal platform API');
  await project(a, infra.id, 'Terraform', Visibility.PRIVATE, 'Infrastructure as code');
  const legacy = await project(a, platform.id, 'Legacy', Visibility.INTERNAL, 'Archived monolith');
  await projectService.setArchived(a, String(legacy.id), true);
  const prototype = await project(admin, lab.id, 'Prototype', Visibility.PRIVATE);
  await projectService.share(admin, String(prototype.id), { groupId: platform.id, groupAccess: 30 });
  await project(admin, community.id, 'Forum', Visibility.INTERNAL);
  await project(a, alice.namespaceId!, 'Dotfiles', Visibility.PUBLIC);
  await projectService.star(as(bob), String(website.id));
  await customAttributeStore.set(admin, 'Group', acme.id, 'tier', 'gold');
  // Storage statistics (no repositories here): deterministic sizes per project.
  await sqlRows(
    em,
    `update projects set repository_size = id * 1048576, lfs_objects_size = id * 524288, job_artifacts_size = id * 262144,
                       storage_size = id * (1048576 + 524288 + 262144)`,
  );
  log('demo data: 5 users, 6 groups (3 levels, every visibility), 7 projects, members, a share, statistics');
}
