import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** Storage only (spec 2.6); `active` is computed from the window when a response is built. */
/**
 * Longest message (ours; GitLab's column is unbounded text): a banner of 10,000 characters is already
 * more than a screen, and every read of the messages is bounded by it (docs/security.md, "Response size").
 */
export const BROADCAST_MESSAGE_MAX = 10_000;

@Entity({ tableName: 'broadcast_messages' })
export class BroadcastMessage {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'text' })
  message!: string;

  @Property({ type: 'datetime' })
  startsAt!: Date;

  @Property({ type: 'datetime' })
  endsAt!: Date;

  @Property({ type: 'text' })
  color = '';

  @Property({ type: 'text' })
  font = '';

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
