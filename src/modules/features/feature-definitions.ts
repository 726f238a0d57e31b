/**
 * Flags this service itself consults, with their defaults. Like GitLab's `default_enabled` flags,
 * a flag nobody has set answers its default; setting any gate (POST /features/:name) makes the gates
 * decide, and DELETE /features/:name returns it to the default.
 */
export interface FeatureDefinition {
  defaultEnabled: boolean;
  description: string;
}

export const FEATURE_DEFINITIONS: Readonly<Record<string, FeatureDefinition>> = {
  graphiql: {
    defaultEnabled: true,
    description: 'The GraphiQL page (GET /-/graphiql and GET /graphql from a browser).',
  },
};

export function defaultEnabled(name: string): boolean {
  return Object.hasOwn(FEATURE_DEFINITIONS, name) && FEATURE_DEFINITIONS[name].defaultEnabled;
}
