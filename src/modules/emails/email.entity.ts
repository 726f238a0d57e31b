import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A user's secondary e-mail address (GitLab 10.3's `emails`): storage only. */
@Entity({ tableName: 'emails' })
export class Email {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  /** Lower-cased and stripped, as GitLab's `Email#email=`. */
  @Property({ type: 'string', length: 255 })
  email!: string;

  /** GitLab 10.3's Email is devise-confirmable; no confirmation mail is sent here, so this stays null. */
  @Property({ type: 'datetime', nullable: true })
  confirmedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
