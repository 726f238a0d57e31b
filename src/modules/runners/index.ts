import { nodeDef } from '../../core/graphql/node';
import { defineModule } from '../../core/module/app-module';
import { Migration20261122130000Runners } from './migrations/Migration20261122130000_runners';
import { Migration20261203180000RunnerTagsGin } from './migrations/Migration20261203180000_runner_tags_gin';
import { Migration20261205120000RunnerSortIndexes } from './migrations/Migration20261205120000_runner_sort_indexes';
import { Migration20261214090000RunnerMaximumTimeout } from './migrations/Migration20261214090000_runner_maximum_timeout';
import { Migration20261214090100RunnerCreator } from './migrations/Migration20261214090100_runner_creator';
import { Migration20261215120000RunnerFilterIndexes } from './migrations/Migration20261215120000_runner_filter_indexes';
import { Migration20261215120100ProjectCiCdSettings } from './migrations/Migration20261215120100_project_ci_cd_settings';
import { Runner, RunnerProject } from './runner.entity';
import { runnerLoaders } from './runner.loaders';
import { RunnerResolver } from './runner.resolver';
import { JobRunnerResolver } from './job-runner.resolver';
import { UserRunnerResolver } from './user-runner.resolver';
import { GroupRunnersResolver } from './group-runners';
import { managerOf, RunnerManagerResolver, RunnerManagersResolver, type RunnerManagerRow } from './runner-manager';
import { RunnerProjectsResolver, runnerProjectLoaders } from './runner-projects';
import { RunnerCreationFieldsResolver, RunnerRegistrationFieldsResolver } from './runner-registration-fields';
import { RunnerEdgeResolver } from './runner-edges';
import {
  GroupRunnersFieldResolver,
  ProjectRunnersResolver,
  UserRunnersFieldResolver,
  runnerOwnerLoaders,
} from './runner-owners';
import { ciCdSettingsLoaders, ProjectCiCdSettingsResolver } from './project-ci-cd-settings';
import { RunnerBulkResolver } from './runner-bulk';
import { RegistrationTokenResetResolver } from './registration-token-reset';
import { runnerRoutes } from './runner.rest';
import { newRunnerToken } from './runner-token';
import { seedRunnersDemo } from './runner-demo.seed';
import { seedRunnersScale } from './runner-scale.seed';

/** CI runners (spec 4.1-4.9) and runner registration. */
export const runnersModule = defineModule({
  name: 'runners',
  // As runner(id): signed-in callers, shared runners or the ones they own; admins all.
  nodes: [
    nodeDef({
      type: 'CiRunner',
      gidClass: 'Ci::Runner',
      load: (ctx, ids) => ctx.loaders.visibleRunner.loadPresent(ids.map(Number)),
    }),
    nodeDef({ type: 'RunnerRegistration', gidClass: 'Ci::Runner' }),
    // A runner's one manager (runner-manager.ts): the visible runners among the ids that made contact.
    nodeDef<RunnerManagerRow>({
      type: 'CiRunnerManager',
      gidClass: 'Ci::RunnerManager',
      load: async (ctx, ids) =>
        (await ctx.loaders.visibleRunner.loadPresent(ids.map(Number)))
          .map(managerOf)
          .filter((m): m is RunnerManagerRow => m !== null),
    }),
  ],
  entities: [Runner, RunnerProject],
  migrations: [
    { name: 'Migration20261122130000_runners', class: Migration20261122130000Runners },
    { name: 'Migration20261203180000_runner_tags_gin', class: Migration20261203180000RunnerTagsGin },
    { name: 'Migration20261205120000_runner_sort_indexes', class: Migration20261205120000RunnerSortIndexes },
    { name: 'Migration20261214090000_runner_maximum_timeout', class: Migration20261214090000RunnerMaximumTimeout },
    { name: 'Migration20261214090100_runner_creator', class: Migration20261214090100RunnerCreator },
    {
      name: 'Migration20261215120000_runner_filter_indexes',
      class: Migration20261215120000RunnerFilterIndexes,
    },
    { name: 'Migration20261215120100_project_ci_cd_settings', class: Migration20261215120100ProjectCiCdSettings },
  ],
  resolvers: [
    RunnerResolver,
    JobRunnerResolver,
    UserRunnerResolver,
    GroupRunnersResolver,
    RunnerManagerResolver,
    RunnerManagersResolver,
    RunnerProjectsResolver,
    RunnerRegistrationFieldsResolver,
    RunnerCreationFieldsResolver,
    RunnerEdgeResolver,
    ProjectRunnersResolver,
    GroupRunnersFieldResolver,
    UserRunnersFieldResolver,
    ProjectCiCdSettingsResolver,
    RunnerBulkResolver,
    RegistrationTokenResetResolver,
  ],
  routes: runnerRoutes,
  loaders: [runnerLoaders, runnerProjectLoaders, runnerOwnerLoaders, ciCdSettingsLoaders],
  seed: [seedRunnersDemo, seedRunnersScale],
  sealed: [
    {
      table: 'ci_runners',
      column: 'token',
      rowKey: 'id',
      digestColumn: 'token_digest',
      // A lost key: each runner gets a new token nobody holds; the runners must register again.
      resetLost: {
        renew: newRunnerToken,
        note: 'runner tokens are new: every runner must be registered again (gitlab-runner register)',
      },
    },
  ],
});
