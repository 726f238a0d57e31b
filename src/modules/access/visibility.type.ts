import { registerEnumType } from 'type-graphql';

export enum Visibility {
  PRIVATE = 'PRIVATE',
  INTERNAL = 'INTERNAL',
  PUBLIC = 'PUBLIC',
}

registerEnumType(Visibility, {
  name: 'Visibility',
  description: 'private, internal or public (GitLab visibility levels 0, 10, 20).',
});

/** GitLab's visibility levels as stored: the one table of 0 / 10 / 20. */
export const VISIBILITY_LEVEL: Record<Visibility, number> = { PRIVATE: 0, INTERNAL: 10, PUBLIC: 20 };
export const VISIBILITY_REST_VALUES = ['private', 'internal', 'public'] as const;

export function toVisibility(level: number): Visibility {
  return level >= VISIBILITY_LEVEL.PUBLIC
    ? Visibility.PUBLIC
    : level >= VISIBILITY_LEVEL.INTERNAL
      ? Visibility.INTERNAL
      : Visibility.PRIVATE;
}

export enum SortDirection {
  ASC = 'ASC',
  DESC = 'DESC',
}

registerEnumType(SortDirection, { name: 'SortDirection' });

/** GitLab's GraphQL `VisibilityLevelsEnum` (lower-case values, as GitLab's): a list filter by visibility. */
export enum VisibilityLevelsEnum {
  private = 'private',
  internal = 'internal',
  public = 'public',
}
registerEnumType(VisibilityLevelsEnum, {
  name: 'VisibilityLevelsEnum',
  description: 'Visibility level: private, internal or public.',
});
