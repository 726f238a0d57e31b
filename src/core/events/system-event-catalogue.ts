import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Every system hook event the service emits (GitLab 10.3's system hooks; "System hooks" in GitLab's
 * docs), with the module that builds its payload (`<module>/<name>.events.ts`). A SystemEvent's name
 * is one of these, so an event cannot be emitted without being listed here; docs/rest.md#system-hooks
 * shows the payloads.
 */
export const SYSTEM_EVENT_CATALOGUE = {
  project_create: 'projects',
  project_destroy: 'projects',
  project_rename: 'projects',
  project_transfer: 'projects',
  user_create: 'users',
  user_destroy: 'users',
  user_rename: 'users',
  key_create: 'keys',
  key_destroy: 'keys',
  group_create: 'groups',
  group_destroy: 'groups',
  group_rename: 'groups',
  user_add_to_group: 'members',
  user_remove_from_group: 'members',
  user_add_to_team: 'members',
  user_remove_from_team: 'members',
} as const;

export type SystemEventName = keyof typeof SYSTEM_EVENT_CATALOGUE;

/** One event as a write emits it (core/events/system-events.ts: emitSystemEvents). */
export interface SystemEvent {
  /** GitLab's event_name: one of the catalogue's. */
  name: SystemEventName;
  /** The payload's other keys, in GitLab's order (event_name, created_at, updated_at come first). */
  data: Record<string, unknown>;
  /** The model's own timestamps (GitLab sends `created_at`/`updated_at` of the changed record). */
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A payload builder that a lower module's write needs and a higher module owns (modules import only
 * lower ones, docs/architecture.md "Modules"): the owner provides it when it loads, the writer builds
 * through it. A user's removal destroys the user's projects and SSH keys; a personal project's
 * creation adds its owner as a member.
 */
export class SystemEventSource<A extends unknown[]> {
  private builder?: (em: EntityManager, ...args: A) => Promise<SystemEvent[]>;

  constructor(readonly what: string) {}

  provide(builder: (em: EntityManager, ...args: A) => Promise<SystemEvent[]>): void {
    if (this.builder) throw new Error(`system events of ${this.what} provided twice`);
    this.builder = builder;
  }

  /** Whether a module provides it (checked at start by buildApp's callers' tests: test/unit/system-event-catalogue). */
  get provided(): boolean {
    return this.builder !== undefined;
  }

  build(em: EntityManager, ...args: A): Promise<SystemEvent[]> {
    if (!this.builder) throw new Error(`no module provides the system events of ${this.what}`);
    return this.builder(em, ...args);
  }
}

/** project_destroy (and the others) for every project in these namespaces, by project id (projects module). */
export const projectsInNamespacesEvents = new SystemEventSource<[namespaceIds: readonly number[], event: 'destroy']>(
  'the projects of namespaces',
);

/** key_destroy for each of a user's SSH keys (keys module). */
export const userSshKeyEvents = new SystemEventSource<[user: { id: number; username: string }, event: 'destroy']>(
  "a user's SSH keys",
);

/** user_add_to_team / user_remove_from_team (and the group twins) of one membership (members module). */
export const membershipEvents = new SystemEventSource<
  [kind: 'group' | 'project', sourceId: number, userId: number, event: 'create' | 'destroy']
>('a membership');
