import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A user's GPG public key (GitLab's gpg_keys): the armored text as sent (stripped), and what the
 * parser read from it. GitLab stores fingerprint and primary key id as binary and shows them
 * upper-cased; here they are upper-case hex text. Subkeys and the user ids' e-mails (GitLab's
 * gpg_key_subkeys and user_infos, used to verify commit signatures) are not kept: no repositories.
 */
@Entity({ tableName: 'gpg_keys' })
export class GpgKey {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  @Property({ type: 'text' })
  key!: string;

  @Property({ type: 'string', length: 40 })
  fingerprint!: string;

  @Property({ type: 'string', length: 16 })
  primaryKeyid!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
