import { Field, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';

@ObjectType('Email', { description: "One of a user's secondary e-mail addresses." })
export class EmailType {
  @Field(() => Int) id!: number;
  @Field(() => String, { description: 'Lower-case.' }) email!: string;
  @Field(() => Date, { nullable: true, description: 'Always null: no confirmation mail is sent.' }) confirmedAt!: Date | null;
  @Field(() => Date) createdAt!: Date;
}

export const EmailPage = PageType(EmailType, 'EmailPage');
