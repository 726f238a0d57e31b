import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * The settings row as the ORM sees it: only what is not a setting. The setting columns are read and
 * written by application-settings.store.ts from the catalogue (one column per entry), so that a
 * request updates exactly the columns it sent.
 */
@Entity({ tableName: 'application_settings' })
export class ApplicationSettings {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id = 1;

  @Property({ type: 'text', hidden: true })
  runnersRegistrationTokenSealed!: string;

  @Property({ type: 'string', length: 64, hidden: true })
  runnersRegistrationTokenDigest!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

/** Addresses a user's API requests came from, for the unique-IPs limit (spec 4.18). */
@Entity({ tableName: 'user_request_ips' })
export class UserRequestIp {
  @PrimaryKey({ type: 'integer' })
  userId!: number;

  @PrimaryKey({ type: 'string', length: 64 })
  ip!: string;

  @Property({ type: 'datetime' })
  lastSeenAt!: Date;
}
