import { registerEnumType } from 'type-graphql';

/**
 * GitLab's `ProjectSort` (Types::Projects::ProjectSortEnum): each value is a projects list's sort string
 * (`Project.sort_by_attribute`) upper-cased. Shared by the project lists and the user's preferences.
 */
export enum ProjectSort {
  ID_ASC = 'ID_ASC',
  ID_DESC = 'ID_DESC',
  LATEST_ACTIVITY_ASC = 'LATEST_ACTIVITY_ASC',
  LATEST_ACTIVITY_DESC = 'LATEST_ACTIVITY_DESC',
  NAME_ASC = 'NAME_ASC',
  NAME_DESC = 'NAME_DESC',
  PATH_ASC = 'PATH_ASC',
  PATH_DESC = 'PATH_DESC',
  STARS_ASC = 'STARS_ASC',
  STARS_DESC = 'STARS_DESC',
  STORAGE_SIZE_ASC = 'STORAGE_SIZE_ASC',
  STORAGE_SIZE_DESC = 'STORAGE_SIZE_DESC',
}

const words = (v: string) =>
  v
    .toLowerCase()
    .replace(/_(asc|desc)$/, '')
    .replace(/_/g, ' ');

registerEnumType(ProjectSort, {
  name: 'ProjectSort',
  description: 'Values for sorting projects',
  valuesConfig: Object.fromEntries(
    Object.values(ProjectSort).map((v) => {
      const what = words(v)
        .replace(/^id$/, 'ID')
        .replace(/^\w/, (c) => c.toUpperCase());
      return [v, { description: `${what} by ${v.endsWith('_ASC') ? 'ascending' : 'descending'} order.` }];
    }),
  ),
});

/** The projects lists' sort string of a ProjectSort value (`NAME_ASC` → `name_asc`). */
export const projectSortString = (sort: ProjectSort): string => sort.toLowerCase();
