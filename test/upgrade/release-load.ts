import { client } from '../scale-out/topology';

/**
 * Load that touches what two releases share on one database (docs/operations.md#upgrades-and-rollbacks):
 * application settings read and written, runners registered through one instance and their tokens
 * verified through the other, groups and projects created, read back elsewhere, updated and deleted.
 * Every answer must be a 2xx; a 409 "retry" (a deadlock PostgreSQL broke) is sent again once, and only a few may be.
 */
export interface Failure {
  via: string;
  method: string;
  path: string;
  status: number;
  error?: string;
  body?: unknown;
}

export interface Written {
  runners: { token: string; id: number; via: string }[];
  groups: { id: number; path: string; via: string }[];
  projects: { id: number; via: string }[];
}

export interface Target {
  name: string;
  port: number;
}

type Client = ReturnType<typeof client>;

export interface LoadResult {
  requests: number;
  failures: Failure[];
  /** Requests answered 409 "retry" (a deadlock or serialization failure) and sent again. */
  retries: Omit<Failure, 'status'>[];
  written: Written;
}

/** One scenario per loop turn, through `self`, with a read-back through `other`. */
async function turn(
  i: number,
  tag: string,
  self: { t: Target; c: Client },
  other: { t: Target; c: Client },
  registration: string,
  record: (via: Target, method: string, path: string, r: { status: number; body: unknown; error?: string }) => boolean,
  written: Written,
  retried: (via: Target, method: string, path: string) => void,
): Promise<void> {
  const call = async (on: { t: Target; c: Client }, method: string, path: string, body?: unknown) => {
    let r = await on.c.call(method, path, body);
    // PostgreSQL aborted the transaction for a concurrent one (a deadlock or serialization failure):
    // the service answers 409 "…; retry" and has changed nothing, so the client retries once, as asked.
    // Counted: expectAllServed allows only a few, so a lock-order clash between the releases still fails.
    if (r.status === 409 && /; retry$/.test(String((r.body as { message?: unknown } | undefined)?.message))) {
      retried(on.t, method, path);
      r = await on.c.call(method, path, body);
    }
    return record(on.t, method, path, r) ? r.body : undefined;
  };
  const name = `${tag}-${self.t.name}-${i}`;
  switch (i % 5) {
    case 0: {
      await call(self, 'GET', '/api/v4/application/settings');
      await call(self, 'PUT', '/api/v4/application/settings', { default_projects_limit: 100 + (i % 50) });
      await call(other, 'GET', '/api/v4/application/settings');
      return;
    }
    case 1: {
      const runner = (await call(self, 'POST', '/api/v4/runners', { token: registration, description: name })) as
        { id: number; token: string } | undefined;
      if (!runner) return;
      written.runners.push({ ...runner, via: self.t.name });
      await call(other, 'POST', '/api/v4/runners/verify', { token: runner.token });
      await call(other, 'PUT', `/api/v4/runners/${runner.id}`, { description: `${name}-renamed` });
      return;
    }
    case 2: {
      const group = (await call(self, 'POST', '/api/v4/groups', { name, path: name })) as { id: number } | undefined;
      if (!group) return;
      written.groups.push({ id: group.id, path: name, via: self.t.name });
      await call(other, 'GET', `/api/v4/groups/${group.id}`);
      await call(other, 'PUT', `/api/v4/groups/${group.id}`, { description: `changed by ${other.t.name}` });
      // A group of its own for the delete (the kept ones receive projects meanwhile).
      const gone = (await call(self, 'POST', '/api/v4/groups', { name: `${name}-gone`, path: `${name}-gone` })) as
        { id: number } | undefined;
      if (gone) await call(other, 'DELETE', `/api/v4/groups/${gone.id}`);
      return;
    }
    case 3: {
      const group = written.groups.at(-1);
      if (!group) return;
      const project = (await call(self, 'POST', '/api/v4/projects', { name, path: name, namespace_id: group.id })) as
        { id: number } | undefined;
      if (!project) return;
      await call(other, 'GET', `/api/v4/projects/${project.id}`);
      await call(other, 'PUT', `/api/v4/projects/${project.id}`, { description: `changed by ${other.t.name}` });
      await call(self, 'GET', `/api/v4/groups/${group.id}/projects`);
      // Listed once this turn is done with it: another turn may delete it from then on.
      written.projects.push({ id: project.id, via: self.t.name });
      return;
    }
    default: {
      // Lists, and a delete of something the other release created (a project, then its own group).
      await call(self, 'GET', '/api/v4/groups?per_page=5');
      await call(self, 'GET', '/api/v4/runners/all?per_page=5');
      const mine = written.projects.findIndex((p) => p.via === other.t.name);
      if (mine >= 0) {
        const [p] = written.projects.splice(mine, 1);
        await call(self, 'DELETE', `/api/v4/projects/${p.id}`);
      }
      const runner = written.runners.find((r) => r.via === other.t.name);
      if (runner) await call(self, 'POST', '/api/v4/runners/verify', { token: runner.token });
    }
  }
}

/**
 * `perTarget` loops against each target, each reading back through the next target, until `finish`.
 * With one target it reads back through itself.
 */
export function releaseLoad(targets: Target[], registration: string, tag: string, perTarget = 2) {
  const result: LoadResult = {
    requests: 0,
    failures: [],
    retries: [],
    written: { runners: [], groups: [], projects: [] },
  };
  let stop = false;
  const record = (via: Target, method: string, path: string, r: { status: number; body: unknown; error?: string }) => {
    result.requests += 1;
    if (r.status >= 200 && r.status < 300) return true;
    result.failures.push({ via: via.name, method, path, status: r.status, error: r.error, body: r.body });
    return false;
  };
  const loop = async (t: Target, o: Target, n: number) => {
    const self = { t, c: client(t.port) };
    const other = o === t ? self : { t: o, c: client(o.port) };
    try {
      for (let i = n; !stop; i += perTarget)
        await turn(i, tag, self, other, registration, record, result.written, (via, method, path) =>
          result.retries.push({ via: via.name, method, path }),
        );
    } finally {
      self.c.close();
      other.c.close();
    }
  };
  const running = Promise.all(
    targets.flatMap((t, k) =>
      Array.from({ length: perTarget }, (_, n) => loop(t, targets[(k + 1) % targets.length], n)),
    ),
  );
  return {
    result,
    async finish(): Promise<LoadResult> {
      stop = true;
      await running;
      return result;
    },
  };
}
