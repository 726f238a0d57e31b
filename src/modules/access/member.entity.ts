import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

abstract class MemberBase {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  /** 10 guest, 20 reporter, 30 developer, 40 master, 50 owner. */
  @Property({ type: 'smallint' })
  accessLevel!: number;

  @Property({ type: 'date', nullable: true })
  expiresAt: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

@Entity({ tableName: 'group_members' })
export class GroupMember extends MemberBase {
  @Property({ type: 'integer' })
  groupId!: number;
}

@Entity({ tableName: 'project_members' })
export class ProjectMember extends MemberBase {
  @Property({ type: 'integer' })
  projectId!: number;
}

export type Member = GroupMember | ProjectMember;
