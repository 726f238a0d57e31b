import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { installJitContinuations } from '../runtime';

/**
 * graphql-jit as the service uses it (Apollo's executor, the REST routes' compiled documents):
 * imported only through here, so no compiled query runs before its runtime is guarded
 * (core/runtime: a throw after a resolver returned is that field's error, never an unhandled rejection).
 */
installJitContinuations();

export { compileQuery, isCompiledQuery };
