import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import type { Environment } from './environment.entity';
import { ENVIRONMENT_DESCRIPTION_MAX, type EnvironmentAttributesInput } from './environment.inputs';
import { longerThan } from '../../core/validation/char-length';

/** GitLab 10.x environment name rule and message. */
const NAME_FORMAT = /^[a-zA-Z0-9_\\/${}. -]+$/;
export const ENVIRONMENT_NAME_MESSAGE =
  "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces";
export const URL_MESSAGE = 'must be a valid URL';

/** http or https URL that parses (GitLab's addressable_url validator). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/** blank → null, as GitLab's `nullify_external_url` before validation. */
export function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}

/**
 * The model validations, in GitLab's order (name, slug, external_url, description, the cluster fields;
 * presence, uniqueness, length, format): 400 {"message":{...}}. Uniqueness in one query against the project's other environments.
 */
export async function validateEnvironment(
  ctx: RequestCtx,
  env: Environment,
  input: EnvironmentAttributesInput,
): Promise<FieldErrorBag> {
  const bag = new FieldErrorBag();
  const [taken] = await sqlRows<{ name: boolean; slug: boolean; url: boolean }>(
    ctx.em,
    `select coalesce(bool_or(name = ?), false) as name, coalesce(bool_or(slug = ?), false) as slug, coalesce(bool_or(external_url = ?), false) as url
       from environments where project_id = ? and id <> ? and (name = ? or slug = ? or external_url = ?)`,
    [env.name, env.slug, env.externalUrl, env.projectId, env.id ?? 0, env.name, env.slug, env.externalUrl],
  );
  if (env.name.trim() === '') bag.add('name', MSG.blank);
  if (taken.name) bag.add('name', MSG.taken);
  if (longerThan(env.name, 255)) bag.add('name', MSG.tooLong);
  if (!NAME_FORMAT.test(env.name)) bag.add('name', ENVIRONMENT_NAME_MESSAGE);
  if (taken.slug) bag.add('slug', MSG.taken);
  if (env.externalUrl !== null) {
    if (taken.url) bag.add('external_url', MSG.taken);
    if (longerThan(env.externalUrl, 255)) bag.add('external_url', MSG.tooLong);
    if (!isHttpUrl(env.externalUrl)) bag.add('external_url', URL_MESSAGE);
  }
  if (env.description !== null && longerThan(env.description, ENVIRONMENT_DESCRIPTION_MAX))
    bag.add('description', `is too long (maximum is ${ENVIRONMENT_DESCRIPTION_MAX} characters)`);
  // GitLab's absence rules: no cluster agent exists here (Kubernetes is not served), so no namespace
  // may be set, and a Flux path only beside a namespace (which is refused itself).
  const namespace = input.kubernetesNamespace !== undefined && input.kubernetesNamespace !== null;
  if (namespace) bag.add('kubernetes_namespace', 'cannot be set without a cluster agent');
  if (input.fluxResourcePath !== undefined && input.fluxResourcePath !== null && !namespace)
    bag.add('flux_resource_path', 'cannot be set without a kubernetes namespace');
  return bag;
}
