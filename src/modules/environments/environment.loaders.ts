import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { findProjects, type Project } from '../projects';

/** The project of environments: primed by the service with the project it already loaded. */
export function environmentLoaders(ctx: RequestCtx) {
  return {
    environmentProject: new DataLoader<number, Project>(async (ids) => {
      const rows = await findProjects(ctx.em, ids);
      const map = new Map(rows.map((p) => [p.id, p]));
      return ids.map((id) => map.get(id) ?? new Error(`project ${id} not found`));
    }),
  };
}

type EnvironmentLoaders = ReturnType<typeof environmentLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends EnvironmentLoaders {}
}
