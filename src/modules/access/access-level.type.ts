import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';

/**
 * GitLab's GraphQL `AccessLevelEnum` (without MINIMAL_ACCESS, which no membership here has). 40 is
 * MAINTAINER: GitLab renamed Master in 11.0, before it had a GraphQL API, so no GitLab GraphQL answer
 * ever said MASTER (REST and audit texts keep 10.3's "Master"). NO_ACCESS is what `maxAccessLevel`
 * answers for a caller without a membership, as GitLab's.
 */
export enum AccessLevelEnum {
  NO_ACCESS = 'NO_ACCESS',
  GUEST = 'GUEST',
  REPORTER = 'REPORTER',
  DEVELOPER = 'DEVELOPER',
  MAINTAINER = 'MAINTAINER',
  OWNER = 'OWNER',
}
registerEnumType(AccessLevelEnum, {
  name: 'AccessLevelEnum',
  description:
    'An access level: 0 NO_ACCESS, 10 GUEST, 20 REPORTER, 30 DEVELOPER, 40 MAINTAINER (Master in GitLab 10.3), 50 OWNER.',
});

const LEVELS: Record<number, [AccessLevelEnum, string]> = {
  0: [AccessLevelEnum.NO_ACCESS, 'No access'],
  10: [AccessLevelEnum.GUEST, 'Guest'],
  20: [AccessLevelEnum.REPORTER, 'Reporter'],
  30: [AccessLevelEnum.DEVELOPER, 'Developer'],
  40: [AccessLevelEnum.MAINTAINER, 'Maintainer'],
  50: [AccessLevelEnum.OWNER, 'Owner'],
};

/** The integer of an AccessLevelEnum value (`minAccessLevel` arguments). */
export const ACCESS_LEVEL_VALUE: Record<AccessLevelEnum, number> = {
  NO_ACCESS: 0,
  GUEST: 10,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
};

/** GitLab's GraphQL `AccessLevel`: the integer and its name. */
@ObjectType('AccessLevel', { description: 'An access level as an integer and as its name.' })
export class AccessLevelType {
  @Field(() => Int, { description: '0, 10, 20, 30, 40 or 50.' }) integerValue!: number;
  @Field(() => AccessLevelEnum) stringValue!: AccessLevelEnum;
  @Field(() => String, {
    description: 'Human-readable name: No access, Guest, Reporter, Developer, Maintainer, Owner.',
  })
  humanAccess!: string;
}

export function accessLevelOf(level: number): AccessLevelType {
  const [stringValue, humanAccess] = LEVELS[level] ?? [AccessLevelEnum.GUEST, 'Guest'];
  return { integerValue: level, stringValue, humanAccess };
}
