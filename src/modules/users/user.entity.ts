import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

@Entity({ tableName: 'users' })
export class User {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'string', length: 255 })
  username!: string;

  @Property({ type: 'string', length: 255 })
  email!: string;

  @Property({ type: 'string', length: 255 })
  name!: string;

  @Property({ type: 'text', nullable: true, hidden: true })
  passwordDigest: string | null = null;

  @Property({ type: 'boolean' })
  admin = false;

  @Property({ type: 'boolean' })
  canCreateGroup = true;

  @Property({ type: 'integer' })
  projectsLimit = 100000;

  @Property({ type: 'boolean' })
  external = false;

  @Property({ type: 'string', length: 16 })
  state = 'active';

  /** GitLab: bio at most 255 characters (checked by checkColumnLengths). */
  @Property({ type: 'text', length: 255 })
  bio = '';

  @Property({ type: 'string', length: 255 })
  location = '';

  @Property({ type: 'string', length: 255 })
  organization = '';

  @Property({ type: 'string', length: 255 })
  skype = '';

  @Property({ type: 'string', length: 255 })
  linkedin = '';

  @Property({ type: 'string', length: 255 })
  twitter = '';

  @Property({ type: 'string', length: 255 })
  websiteUrl = '';

  /** The avatar's file name (GitLab's column); its bytes are in `avatars` (modules/avatars). */
  @Property({ type: 'string', length: 255, nullable: true })
  avatar: string | null = null;

  /** The user's personal namespace (namespaces.kind = 'user'). */
  @Property({ type: 'integer', nullable: true })
  namespaceId: number | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  /** The last day the user made an authenticated request (user-activity.ts), YYYY-MM-DD. */
  @Property({ type: 'date', nullable: true })
  lastActivityOn: string | null = null;
}
