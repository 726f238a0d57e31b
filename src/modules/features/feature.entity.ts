import { ArrayType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { GateValues } from './feature-gates';

/** A persisted feature and its gate values (storage only; state and gates are computed). */
@Entity({ tableName: 'features' })
export class Feature implements GateValues {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'string', length: 255 })
  name!: string;

  @Property({ type: 'boolean' })
  booleanValue = false;

  /** Flipper actor ids, `User:<id>`, in the order they were enabled. */
  @Property({ type: new ArrayType(), columnType: 'text[]' })
  actors: string[] = [];

  @Property({ type: new ArrayType(), columnType: 'text[]' })
  groups: string[] = [];

  @Property({ type: 'integer' })
  percentageOfActors = 0;

  @Property({ type: 'integer' })
  percentageOfTime = 0;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
