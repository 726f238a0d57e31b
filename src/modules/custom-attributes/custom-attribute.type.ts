import { Field, InputType, ObjectType } from 'type-graphql';
import { shape, str } from '../../core/wire/wire';

/** A custom attribute of a user, group or project (GitLab's custom attributes API; administrators only). */
@ObjectType('CustomAttribute')
export class CustomAttributeType {
  @Field(() => String) key!: string;
  @Field(() => String) value!: string;
}

/** `custom_attributes[key]=value` on the user, group and project lists (administrators only; ignored for others). */
@InputType('CustomAttributeFilter')
export class CustomAttributeFilter {
  @Field(() => String) key!: string;
  @Field(() => String) value!: string;
}

export interface KeyValue {
  key: string;
  value: string;
}

export const CustomAttributeWire = shape('CustomAttribute', { key: str(), value: str() });
