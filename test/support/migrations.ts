import type { Configuration } from '@mikro-orm/core';
import type { AbstractSqlDriver } from '@mikro-orm/knex';
import type { Migration } from '@mikro-orm/migrations';
import { ormModelOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';

/** A migration's class as the module registry lists it (each module's door), not imported from its file. */
export function registeredMigration(name: string): new (driver: AbstractSqlDriver, config: Configuration) => Migration {
  const found = ormModelOf(MODULES).migrations.find((m) => m.name === name);
  if (!found) throw new Error(`no registered migration ${name}`);
  return found.class as unknown as new (driver: AbstractSqlDriver, config: Configuration) => Migration;
}
