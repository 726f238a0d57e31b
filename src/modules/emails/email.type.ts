import { idArgOf } from '../../core/graphql/global-id';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { Field, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';

@ObjectType('Email', { description: "One of a user's secondary e-mail addresses.", implements: Node })
export class EmailType extends DatabaseNode {
  @Field(() => String, { description: 'Lower-case.' }) email!: string;
  @Field(() => Date, { nullable: true, description: 'Always null: no confirmation mail is sent.' })
  confirmedAt!: Date | null;
  @Field(() => Date) createdAt!: Date;
}

export const EmailPage = PageType(EmailType, 'EmailConnection');

/** Argument type of a Email id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const EmailIdArg = idArgOf('Email');
