import { Field, InputType } from 'type-graphql';

@InputType('CreateEmailInput')
export class CreateEmailInput {
  @Field(() => String, { description: 'The address; stored lower-cased.' }) email!: string;
}
