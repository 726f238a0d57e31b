import type { EntityManager } from '@mikro-orm/postgresql';

/** Work another module does in the transaction that deletes namespaces, before anything is deleted. */
export type NamespaceRemovalStep = (em: EntityManager, namespaceIds: readonly number[]) => Promise<void>;

const steps: NamespaceRemovalStep[] = [];

/**
 * Deleting namespaces takes their projects (FK cascade, which reports nothing back), so the modules that
 * keep state about those rows elsewhere (the projects module's forks counts) register a step here when
 * they load, and whoever deletes namespaces (a user's removal, a group's) runs `beforeNamespacesRemoved`
 * first, in its transaction. This keeps the deleting module free of the projects module's internals.
 */
export const namespaceRemoval = {
  register(step: NamespaceRemovalStep): void {
    steps.push(step);
  },
};

export async function beforeNamespacesRemoved(em: EntityManager, namespaceIds: readonly number[]): Promise<void> {
  if (namespaceIds.length === 0) return;
  for (const step of steps) await step(em, namespaceIds);
}
