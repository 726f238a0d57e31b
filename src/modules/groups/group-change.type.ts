import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GroupType } from './group.type';

export enum GroupChangeAction {
  CREATED = 'CREATED',
  UPDATED = 'UPDATED',
  DELETED = 'DELETED',
}
registerEnumType(GroupChangeAction, {
  name: 'GroupChangeAction',
  description:
    'CREATED, UPDATED (renamed, moved, visibility or settings changed, shared); DELETED when the group was deleted or the subscriber may no longer see it (the two look alike, as a group the caller may not see answers like a missing one).',
});

@ObjectType('GroupChange', {
  description: 'A group that changed, as the subscriber may see it when the change is delivered.',
})
export class GroupChangeType {
  @Field(() => GroupChangeAction) action!: GroupChangeAction;
  /** Not `id`: that would make normalizing caches merge this record into the group's (runner.type.ts RunnerChange). */
  @Field(() => ID, { description: 'Global id of the group (also when it was deleted): `Group.id`.' })
  groupId!: string;
  @Field(() => Int, { description: 'Database id of the group (also when it was deleted): `Group.databaseId`.' })
  databaseId!: number;
  @Field(() => GroupType, {
    nullable: true,
    description: 'The group as it is now; null when DELETED (deleted, or no longer visible to the subscriber).',
  })
  group!: GroupType | null;
}
