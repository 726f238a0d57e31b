import type { FieldErrorBag } from '../errors/field-error-bag';
import { MSG } from '../errors/messages';
import { longerThan } from './char-length';
/**
 * Name and path rules of GitLab 10.x shared by groups, projects and users (docs/gitlab-compatibility.md,
 * "Names and paths"). Their messages are in core/errors/messages.ts.
 */

const NAMESPACE_PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const GROUP_NAME = /^[\p{L}\p{N}\p{Pd}_. ]*$/u;
const PROJECT_NAME = /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Pd}\p{Extended_Pictographic}_. ]*$/u;

export function isValidNamespacePath(path: string): boolean {
  return NAMESPACE_PATH.test(path) && !/(\.|\.git|\.atom)$/i.test(path);
}

export function isValidProjectPath(path: string): boolean {
  return NAMESPACE_PATH.test(path) && !/(\.git|\.atom)$/i.test(path);
}

export const isValidGroupName = (name: string) => GROUP_NAME.test(name);
export const isValidProjectName = (name: string) => PROJECT_NAME.test(name);

export const TOP_LEVEL_RESERVED = new Set([
  '-',
  '.well-known',
  '404.html',
  '422.html',
  '500.html',
  '502.html',
  '503.html',
  'abuse_reports',
  'admin',
  'api',
  'apple-touch-icon-precomposed.png',
  'apple-touch-icon.png',
  'assets',
  'autocomplete',
  'ci',
  'dashboard',
  'deploy.html',
  'explore',
  'favicon.ico',
  'files',
  'groups',
  'header_logo_dark.png',
  'header_logo_light.png',
  'health_check',
  'help',
  'import',
  'invites',
  'jwt',
  'koding',
  'notification_settings',
  'oauth',
  'profile',
  'projects',
  'public',
  'robots.txt',
  's',
  'search',
  'sent_notifications',
  'slash-command-logo.png',
  'snippets',
  'u',
  'unsubscribes',
  'uploads',
  'users',
]);

export const SUBGROUP_RESERVED = new Set([
  '-',
  'badges',
  'blame',
  'blob',
  'builds',
  'commits',
  'create',
  'create_dir',
  'edit',
  'environments',
  'files',
  'find_file',
  'gitlab-lfs',
  'info',
  'new',
  'preview',
  'raw',
  'refs',
  'tree',
  'update',
  'wikis',
]);

/** Converts a project name into a default path (GitLab's `parameterize`). */
export function parameterize(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
}

/** A format rule: the test and GitLab's message when it fails. */
export type FormatRule = readonly [test: (value: string) => boolean, message: string];

/**
 * GitLab's name/path/username checks, first failing message only: blank, longer than 255, format,
 * then reserved names (groups, projects and users share it).
 */
export function checkNameOrPath(
  bag: FieldErrorBag,
  field: string,
  value: string | null | undefined,
  format?: FormatRule,
  reserved?: ReadonlySet<string>,
): void {
  if (!value) bag.add(field, MSG.blank);
  else if (longerThan(value, 255)) bag.add(field, MSG.tooLong);
  else if (format && !format[0](value)) bag.add(field, format[1]);
  else if (reserved?.has(value.toLowerCase())) bag.add(field, MSG.reserved(value));
}
