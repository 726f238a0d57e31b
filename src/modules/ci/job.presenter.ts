import { int, lowerEnum, num, obj, shape, str, strList, time, bool } from '../../core/wire/wire';
import { UserWire } from '../users';
import { JOB_STATUS_REST_VALUES } from './job.type';

/** GitLab 10.3 entities behind GET /runners/:id/jobs (JobBasicWithProject, spec 2.2). */
export const CommitWire = shape('Commit', {
  id: str('id'),
  short_id: str('shortId'),
  title: str('title'),
  created_at: time('createdAt'),
  parent_ids: strList('parentIds'),
  message: str('message'),
  author_name: str('authorName'),
  author_email: str('authorEmail'),
  authored_date: time('authoredDate'),
  committer_name: str('committerName'),
  committer_email: str('committerEmail'),
  committed_date: time('committedDate'),
});

export const PipelineBasicWire = shape('PipelineBasic', {
  id: int('id'),
  sha: str('sha'),
  ref: str('ref'),
  status: str('status'),
});

export const ProjectIdentityWire = shape('ProjectIdentity', {
  id: int('id'),
  description: str('description', { nullable: true }),
  name: str('name'),
  name_with_namespace: str('nameWithNamespace'),
  path: str('path'),
  path_with_namespace: str('pathWithNamespace'),
  created_at: time('createdAt'),
});

export const JobWire = shape('JobBasicWithProject', {
  id: int('id'),
  status: lowerEnum('status', JOB_STATUS_REST_VALUES),
  stage: str('stageName'),
  name: str('name'),
  ref: str('ref'),
  tag: bool('tag'),
  coverage: num('coverage', { nullable: true }),
  created_at: time('createdAt'),
  started_at: time('startedAt', { nullable: true }),
  finished_at: time('finishedAt', { nullable: true }),
  duration: num('duration', { nullable: true }),
  user: obj('user', UserWire, { nullable: true }),
  commit: obj('commit', CommitWire, { nullable: true }),
  pipeline: obj('pipeline', PipelineBasicWire),
  project: obj('project', ProjectIdentityWire),
});

/** The runner of a job (GitLab 10.3's Entities::Runner, as the runners module shows it). */
const JobRunnerWire = shape('JobRunner', {
  id: int('id'),
  description: str('description'),
  active: bool('active'),
  is_shared: bool('isShared'),
  name: str('name', { nullable: true }),
});

/** GitLab 10.3's Entities::Job (GET /projects/:id/jobs): the basic job with its runner, without the project. */
export const ProjectJobWire = shape('Job', {
  ...Object.fromEntries(Object.entries(JobWire.fields).filter(([k]) => k !== 'project')),
  runner: obj('runner', JobRunnerWire, { nullable: true }),
});
