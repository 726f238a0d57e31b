import { idArgOf } from '../../core/graphql/global-id';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { Field, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { TextCost } from '../../core/graphql/text-cost';
import { KEY_MAX_LENGTH } from './gpg-key.limits';

@ObjectType('GpgKey', {
  description: "A user's GPG public key (ASCII-armored OpenPGP public key block).",
  implements: Node,
})
export class GpgKeyType extends DatabaseNode {
  @Field(() => String, { description: 'The armored key as it was added, without surrounding blanks.' })
  @TextCost(KEY_MAX_LENGTH)
  key!: string;
  @Field(() => String, { description: "The primary key's v4 fingerprint, 40 upper-case hex digits." })
  fingerprint!: string;
  @Field(() => String, { description: "The primary key's id (the fingerprint's last 16 hex digits)." })
  primaryKeyid!: string;
  @Field(() => Date) createdAt!: Date;
}

export const GpgKeyPage = PageType(GpgKeyType, 'GpgKeyConnection');

/** Argument type of a GpgKey id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const GpgKeyIdArg = idArgOf('GpgKey');
