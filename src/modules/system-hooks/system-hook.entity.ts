import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * The hook's table as the ORM knows it (registry: reset in tests, metadata). The service and the
 * deliverer use SQL on it directly (delivery state, leases); see the migration for all columns.
 */
@Entity({ tableName: 'system_hooks' })
export class SystemHook {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'text' })
  url!: string;
}
