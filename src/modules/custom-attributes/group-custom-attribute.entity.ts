import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

@Entity({ tableName: 'group_custom_attributes' })
export class GroupCustomAttribute {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  groupId!: number;

  @Property({ type: 'string', length: 255 })
  key!: string;

  @Property({ type: 'string', length: 255 })
  value!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
