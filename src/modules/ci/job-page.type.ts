import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';

/**
 * What GitLab's project Jobs page reads of a job beyond the runner page (CiJob.stage, userPermissions,
 * artifacts, DetailedStatus.action) and the CiJobSource filter, with GitLab's names.
 */

/** GitLab's job sources (Ci::BuildSource.sources: two policy sources, then every pipeline source). */
export enum JobSource {
  SCAN_EXECUTION_POLICY = 'SCAN_EXECUTION_POLICY',
  PIPELINE_EXECUTION_POLICY = 'PIPELINE_EXECUTION_POLICY',
  UNKNOWN = 'UNKNOWN',
  PUSH = 'PUSH',
  WEB = 'WEB',
  TRIGGER = 'TRIGGER',
  SCHEDULE = 'SCHEDULE',
  API = 'API',
  EXTERNAL = 'EXTERNAL',
  PIPELINE = 'PIPELINE',
  CHAT = 'CHAT',
  WEBIDE = 'WEBIDE',
  MERGE_REQUEST_EVENT = 'MERGE_REQUEST_EVENT',
  EXTERNAL_PULL_REQUEST_EVENT = 'EXTERNAL_PULL_REQUEST_EVENT',
  PARENT_PIPELINE = 'PARENT_PIPELINE',
  ONDEMAND_DAST_SCAN = 'ONDEMAND_DAST_SCAN',
  ONDEMAND_DAST_VALIDATION = 'ONDEMAND_DAST_VALIDATION',
  SECURITY_ORCHESTRATION_POLICY = 'SECURITY_ORCHESTRATION_POLICY',
  CONTAINER_REGISTRY_PUSH = 'CONTAINER_REGISTRY_PUSH',
  DUO_WORKFLOW = 'DUO_WORKFLOW',
  PIPELINE_EXECUTION_POLICY_SCHEDULE = 'PIPELINE_EXECUTION_POLICY_SCHEDULE',
}
registerEnumType(JobSource, {
  name: 'CiJobSource',
  valuesConfig: Object.fromEntries(
    Object.keys(JobSource).map((k) => [
      k,
      { description: `A job initiated by ${k.toLowerCase().replace(/_/g, ' ')}.` },
    ]),
  ),
});

/**
 * `ci_pipelines.source` as GitLab stores it (Enums::Ci::Pipeline.sources; null is `unknown`). A job's
 * source is its pipeline's: the two policy sources belong to jobs a security policy adds, which no
 * pipeline here has, so they match no job.
 */
export const PIPELINE_SOURCE_CODES: Partial<Record<JobSource, number>> = {
  [JobSource.PUSH]: 1,
  [JobSource.WEB]: 2,
  [JobSource.TRIGGER]: 3,
  [JobSource.SCHEDULE]: 4,
  [JobSource.API]: 5,
  [JobSource.EXTERNAL]: 6,
  [JobSource.PIPELINE]: 7,
  [JobSource.CHAT]: 8,
  [JobSource.WEBIDE]: 9,
  [JobSource.MERGE_REQUEST_EVENT]: 10,
  [JobSource.EXTERNAL_PULL_REQUEST_EVENT]: 11,
  [JobSource.PARENT_PIPELINE]: 12,
  [JobSource.ONDEMAND_DAST_SCAN]: 13,
  [JobSource.ONDEMAND_DAST_VALIDATION]: 14,
  [JobSource.SECURITY_ORCHESTRATION_POLICY]: 15,
  [JobSource.CONTAINER_REGISTRY_PUSH]: 16,
  [JobSource.DUO_WORKFLOW]: 17,
  [JobSource.PIPELINE_EXECUTION_POLICY_SCHEDULE]: 18,
};

/** The trigger source: a pipeline created through a pipeline trigger token (CiJob.triggered). */
export const TRIGGER_SOURCE = PIPELINE_SOURCE_CODES[JobSource.TRIGGER]!;

/**
 * GitLab's CiStage of a job: its stage in its pipeline. Stages are not rows here (a job stores its stage's
 * name), so a stage is its pipeline and its name, and its id says both: `<pipeline id>:<name>`.
 */
@ObjectType('CiStage')
export class StageType {
  @Field(() => String, {
    description:
      'ID of the stage: its pipeline id and name, `<pipeline id>:<name>` (GitLab: the global id of a `ci_stages` row; stages are no rows here, so this is no global id and CiStage is no Node).',
  })
  id!: string;
  @Field(() => String, { nullable: true, description: 'Name of the stage.' }) name!: string | null;
}

/** GitLab's JobPermissions: what the caller may do with a job (JobPolicy over the project's access rules). */
@ObjectType('JobPermissions')
export class JobPermissionsType {
  @Field(() => Boolean, { description: 'If `true`, the user can perform `read_build` on this resource.' })
  readBuild!: boolean;
  @Field(() => Boolean, {
    description:
      'If `true`, the user can perform `read_job_artifacts` on this resource (as `readBuild`: no job has artifacts here).',
  })
  readJobArtifacts!: boolean;
  @Field(() => Boolean, {
    description: 'If `true`, the user can perform `update_build` on this resource (Developer and above).',
  })
  updateBuild!: boolean;
  @Field(() => Boolean, { description: 'If `true`, the user can perform `cancel_build` on this resource.' })
  cancelBuild!: boolean;
}

/** GitLab's StatusAction: the button of a CI badge. */
@ObjectType('StatusAction')
export class StatusActionType {
  @Field(() => String, { description: 'ID for a status action: `Ci::Build-<detailed status id>`.' }) id!: string;
  @Field(() => String, { nullable: true, description: 'Title for the button, for example: Run this job again.' })
  buttonTitle!: string | null;
  @Field(() => String, { nullable: true, description: 'Icon used in the action button.' }) icon!: string | null;
  @Field(() => String, { nullable: true, description: 'Method for the action, for example: post.' })
  method!: string | null;
  @Field(() => String, { nullable: true, description: 'Path for the action.' }) path!: string | null;
  @Field(() => String, { nullable: true, description: 'Title for the action, for example: Cancel.' })
  title!: string | null;
}

/** GitLab's JobArtifactFileType. */
export enum JobArtifactFileType {
  ARCHIVE = 'ARCHIVE',
  METADATA = 'METADATA',
  TRACE = 'TRACE',
  JUNIT = 'JUNIT',
  METRICS = 'METRICS',
  METRICS_REFEREE = 'METRICS_REFEREE',
  NETWORK_REFEREE = 'NETWORK_REFEREE',
  DOTENV = 'DOTENV',
  COBERTURA = 'COBERTURA',
  JACOCO = 'JACOCO',
  CLUSTER_APPLICATIONS = 'CLUSTER_APPLICATIONS',
  LSIF = 'LSIF',
  SCIP = 'SCIP',
  CYCLONEDX = 'CYCLONEDX',
  ANNOTATIONS = 'ANNOTATIONS',
  REPOSITORY_XRAY = 'REPOSITORY_XRAY',
  SAST = 'SAST',
  SECRET_DETECTION = 'SECRET_DETECTION',
  DEPENDENCY_SCANNING = 'DEPENDENCY_SCANNING',
  CONTAINER_SCANNING = 'CONTAINER_SCANNING',
  CLUSTER_IMAGE_SCANNING = 'CLUSTER_IMAGE_SCANNING',
  DAST = 'DAST',
  LICENSE_SCANNING = 'LICENSE_SCANNING',
  ACCESSIBILITY = 'ACCESSIBILITY',
  CODEQUALITY = 'CODEQUALITY',
  PERFORMANCE = 'PERFORMANCE',
  BROWSER_PERFORMANCE = 'BROWSER_PERFORMANCE',
  LOAD_PERFORMANCE = 'LOAD_PERFORMANCE',
  TERRAFORM = 'TERRAFORM',
  REQUIREMENTS = 'REQUIREMENTS',
  REQUIREMENTS_V2 = 'REQUIREMENTS_V2',
  COVERAGE_FUZZING = 'COVERAGE_FUZZING',
  API_FUZZING = 'API_FUZZING',
}
registerEnumType(JobArtifactFileType, { name: 'JobArtifactFileType' });

/** GitLab's CiJobArtifact. This service stores no artifacts: every job's list of them is empty. */
@ObjectType('CiJobArtifact')
export class JobArtifactType {
  @Field(() => String, { nullable: true, description: 'URL for downloading the artifact file.' })
  downloadPath!: string | null;
  @Field(() => JobArtifactFileType, { nullable: true, description: 'File type of the artifact.' })
  fileType!: JobArtifactFileType | null;
  @Field(() => String, { nullable: true, description: 'File name of the artifact.' }) name!: string | null;
}

export const JobArtifactPage = PageType(JobArtifactType, 'CiJobArtifactConnection');
