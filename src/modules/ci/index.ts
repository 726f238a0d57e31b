import { defineModule } from '../../core/module/app-module';
import { ciLoaders } from './ci.loaders';
import { CiCommit, CiJob, CiPipeline } from './ci.entity';
import { JobResolver } from './job.resolver';
import { seedCiDemo } from './ci-demo.seed';
import { Migration20261122130100CiJobs } from './migrations/Migration20261122130100_ci_jobs';

/** Pipelines, commits and jobs: what runners run (spec 2.2). Nothing in the API creates them; the seed does. */
export const ciModule = defineModule({
  name: 'ci',
  entities: [CiCommit, CiPipeline, CiJob],
  migrations: [{ name: 'Migration20261122130100_ci_jobs', class: Migration20261122130100CiJobs }],
  resolvers: [JobResolver],
  loaders: ciLoaders,
  seed: [seedCiDemo],
});
