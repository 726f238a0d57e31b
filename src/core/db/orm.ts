import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { ReflectMetadataProvider } from '@mikro-orm/core';
import type { OrmModel } from '../module/app-module';
import { MIGRATIONS } from './migrations';

export type Orm = MikroORM;

export interface OrmOptions {
  clientUrl: string;
  debug?: boolean;
  poolMax?: number;
  /** The registered modules' entities and migrations (core/module: ormModelOf(MODULES)). */
  model: OrmModel;
}

export async function initOrm(opts: OrmOptions): Promise<Orm> {
  return MikroORM.init({
    clientUrl: opts.clientUrl,
    entities: opts.model.entities,
    metadataProvider: ReflectMetadataProvider,
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: { migrationsList: [...MIGRATIONS, ...opts.model.migrations], transactional: true, allOrNothing: true, snapshot: false, silent: true },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    debug: opts.debug ?? false,
  });
}

/** Applies the committed migrations (never schema sync); returns how many ran. */
export async function migrate(orm: Orm): Promise<number> {
  const applied = await orm.getMigrator().up();
  return applied.length;
}
