import type http from 'node:http';
import type { Express } from 'express';
import { apolloGatewayContextContract, installApolloGatewayContext } from './apollo-gateway-context';
import { createAppServer as createServer, expressPrototypesContract } from './express-prototypes';
import { guardJitRuntime, jitContinuationsContract } from './graphql-jit-continuations';
import { graphqlSuggestionsContract, installGraphqlSuggestions } from './graphql-suggestions';
import { serverHandleContract } from './node-server-handle';
import { installTypeGraphqlExtensions, typeGraphqlExtensionsContract } from './type-graphql-extensions';

/**
 * The one door to what the service changes or uses inside its dependencies (docs/runtime-patches.md).
 * Each entry names the dependency, says what it does, and has a contract: a check that the internals
 * it relies on are still there, run by test/unit/runtime-patches.unit.test.ts, so an upgrade that
 * moves them fails a test instead of the service. A patch can be switched off for a process with
 * `RUNTIME_PATCHES_OFF=<name>,<name>` (to measure it, or to run on a dependency that moved); the
 * internal the supervisor uses has no alternative and no switch.
 */
export interface RuntimePatch {
  name: string;
  dependency: string;
  what: string;
  /** undefined while the dependency still has what the patch relies on, else what changed. */
  contract(): string | undefined;
  /** Whether RUNTIME_PATCHES_OFF may name it. */
  switchable: boolean;
}

export const RUNTIME_PATCHES: readonly RuntimePatch[] = [
  {
    name: 'graphql-jit-continuations',
    dependency: 'graphql-jit',
    what: "a throw in a field's completion becomes that field's error instead of an unhandled rejection",
    contract: () => jitContinuationsContract(),
    switchable: true,
  },
  {
    name: 'apollo-gateway-context',
    dependency: '@apollo/server',
    what: "the gateway request context is built without per-request accessor literals, so a request's data dies young",
    contract: apolloGatewayContextContract,
    switchable: true,
  },
  {
    name: 'express-prototypes',
    dependency: 'node:http + express',
    what: 'requests and responses are built with express prototypes, so express does not change them per request',
    contract: expressPrototypesContract,
    switchable: true,
  },
  {
    name: 'type-graphql-extensions',
    dependency: 'type-graphql',
    what: "a schema build looks up each field's @Extensions among that field name's entries, not the whole list",
    contract: typeGraphqlExtensionsContract,
    switchable: true,
  },
  {
    name: 'graphql-suggestions',
    dependency: 'graphql',
    what: 'validation errors name the unknown type, field, argument or value without computing "Did you mean" suggestions',
    contract: graphqlSuggestionsContract,
    switchable: true,
  },
  {
    name: 'node-server-handle',
    dependency: 'node:net',
    what: 'the supervisor binds the port without listening (net._createServerHandle), as node:cluster does',
    contract: serverHandleContract,
    switchable: false,
  },
];

/** The names in a RUNTIME_PATCHES_OFF value that are not switchable patches (config.ts refuses them at start). */
export function unknownPatchSwitches(raw: string | undefined): string[] {
  const switchable = new Set(RUNTIME_PATCHES.filter((p) => p.switchable).map((p) => p.name));
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !switchable.has(s));
}

/** Patches switched off for this process (read once: the switch is process-wide, like the node flags). */
const switchedOff = new Set(
  (process.env.RUNTIME_PATCHES_OFF ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

export function patchEnabled(name: string): boolean {
  return !switchedOff.has(name);
}

/** graphql-jit's guarded continuations, before any compiled query runs (core/graphql/jit.ts). */
export function installJitContinuations(): void {
  if (patchEnabled('graphql-jit-continuations')) guardJitRuntime();
}

/** Apollo's gateway request context, before Apollo starts (core/graphql/jit-executor.ts). */
export function installGatewayContext(): void {
  if (patchEnabled('apollo-gateway-context')) installApolloGatewayContext();
}

/** type-graphql's extension lookup, before a schema is built (core/graphql/schema.ts). */
export function installExtensionLookup(): void {
  if (patchEnabled('type-graphql-extensions')) installTypeGraphqlExtensions();
}

/** graphql-js without suggestions, before any document is validated (core/graphql/schema.ts). */
export function installSuggestionCutoff(): void {
  if (patchEnabled('graphql-suggestions')) installGraphqlSuggestions();
}

/** The HTTP server for an express app (main.ts, the tests' servers). */
export function createAppServer(app: Express, listener: http.RequestListener = app): http.Server {
  return createServer(app, listener, patchEnabled('express-prototypes'));
}

export { expressServerOptions } from './express-prototypes';
export { guardJitRuntime } from './graphql-jit-continuations';
export { createServerHandle, type ServerHandle } from './node-server-handle';
