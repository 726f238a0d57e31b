import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { camelCase } from '../../core/params/coerce';
import { Visibility } from '../access';
import { CostItems } from '../../core/graphql/list-bound';
import { TEXT_COST_CHARS, TextCost } from '../../core/graphql/text-cost';
import { SETTINGS, WEB_PASSWORD_ALIASES, QUEUES_TYPO, type SettingDef } from './application-settings.catalogue';

/**
 * The GraphQL type and input of the settings, built from the catalogue when this module loads:
 * type-graphql's decorators are plain functions, so each catalogue entry decorates one property of
 * these classes. Writing ~90 decorated properties by hand would repeat the catalogue.
 */
type TypeFn = () => object;

function outputType(s: SettingDef): TypeFn {
  switch (s.kind) {
    case 'string':
      return () => String;
    case 'boolean':
    case 'derived':
      return () => Boolean;
    case 'integer':
    case 'groupPath':
      return () => Int;
    case 'decimal':
      return () => Float;
    case 'strings':
      return () => [String];
    case 'visibility':
      return () => Visibility;
    case 'visibilities':
      return () => [Visibility];
  }
}

/** What a write takes: visibility lists as names or numbers, the performance bar group as a full path. */
function inputType(s: SettingDef): TypeFn {
  if (s.kind === 'visibilities') return () => [String];
  if (s.kind === 'groupPath') return () => String;
  return outputType(s);
}

const field = (
  target: object,
  name: string,
  type: TypeFn,
  opts: { nullable?: boolean; description?: string; deprecationReason?: string },
) => Field(type, opts)(target, name);

/** GET /application/settings (spec 2.5): every setting plus id, timestamps, legacy aliases and the runner token. */
export class ApplicationSettingsType {
  [setting: string]: unknown;
}
field(ApplicationSettingsType.prototype, 'id', () => Int, { description: 'Always 1.' });
for (const s of SETTINGS) {
  field(ApplicationSettingsType.prototype, camelCase(s.name), outputType(s), {
    nullable: s.nullable === true,
    description: s.description,
  });
  // Lists admins write, with no maximum: the cost walk counts them high (list-bound.ts).
  if (s.kind === 'strings' || s.kind === 'visibilities')
    CostItems()(ApplicationSettingsType.prototype, camelCase(s.name));
  // Free text: counted at its bound (text-cost.ts).
  if (s.kind === 'string' && s.maxLength && s.maxLength > TEXT_COST_CHARS)
    TextCost(s.maxLength)(ApplicationSettingsType.prototype, camelCase(s.name));
}
for (const alias of WEB_PASSWORD_ALIASES) {
  field(ApplicationSettingsType.prototype, camelCase(alias), () => Boolean, {
    description: 'Legacy name of passwordAuthenticationEnabledForWeb.',
  });
}
field(ApplicationSettingsType.prototype, 'runnersRegistrationToken', () => String, {
  nullable: true,
  description:
    'Instance token runners register with (registerRunner); rotate with resetRunnersRegistrationToken. Null only when the stored value does not open with the configured secrets keys (logged, counted in secrets_unreadable_total).',
});
field(ApplicationSettingsType.prototype, 'createdAt', () => Date, {});
field(ApplicationSettingsType.prototype, 'updatedAt', () => Date, {});
ObjectType('ApplicationSettings', { description: 'Instance-wide settings, administrators only.' })(
  ApplicationSettingsType,
);

/** PUT /application/settings: every setting optional; at least one must be given. */
export class UpdateApplicationSettingsInput {
  [setting: string]: unknown;
}
for (const s of SETTINGS) {
  field(UpdateApplicationSettingsInput.prototype, camelCase(s.name), inputType(s), {
    nullable: true,
    description: s.description,
  });
}
for (const alias of WEB_PASSWORD_ALIASES) {
  field(UpdateApplicationSettingsInput.prototype, camelCase(alias), () => Boolean, {
    nullable: true,
    deprecationReason: 'Use passwordAuthenticationEnabledForWeb.',
  });
}
field(UpdateApplicationSettingsInput.prototype, camelCase(QUEUES_TYPO), () => [String], {
  nullable: true,
  deprecationReason: 'GitLab 10.x spelling, required when throttling is enabled; stored as jobqueueThrottlingQueues.',
});
InputType('UpdateApplicationSettingsInput')(UpdateApplicationSettingsInput);
