/**
 * Runtime patch of graphql-jit (one of core/runtime's; docs/runtime-patches.md).
 *
 * graphql-jit 0.8 runs a field's sub-selection (plain property reads, getters, nested resolver calls)
 * in the `onSuccess` continuation of its parent resolver. For a resolver that returned a promise that
 * continuation runs inside `promise.then(...)` with nothing catching it: a throw there (a getter on a
 * view object, a value that cannot be rendered) became an unhandled rejection, which stops a Node
 * process, and the operation never finished (its pending-promise counter never reached 0). For a
 * resolver that answered synchronously the throw escaped the whole compiled query instead of
 * becoming that field's error.
 *
 * This installs, once, a runtime where a throwing continuation is handled the way graphql-jit already
 * handles a throwing resolver (`callResolver`): the error goes to that field (`onError`, which records
 * it at the field's path with the thrown value as originalError, so the error formatter logs it once
 * and answers "Internal server error"), then the field completes as null (`onSuccess(null)`), which
 * also runs the rest of the continuation (a mutation's queue, the pending counter). Same behaviour as
 * graphql-js, where a throw anywhere in a field's completion becomes that field's error.
 */
type OnSuccess = (value: unknown) => void;
type OnError = (error: unknown) => void;
interface JitExecutionContext {
  promiseCounter: number;
  resolve?: (ctx: JitExecutionContext) => void;
}
interface JitRuntime {
  isPromise(value: unknown): value is PromiseLike<unknown>;
  handleResolverResult(ctx: JitExecutionContext, value: unknown, onSuccess: OnSuccess, onError: OnError): void;
  handleListItemResult(ctx: JitExecutionContext, item: unknown, onSuccess: OnSuccess, onError: OnError): void;
  __guarded?: true;
}

/** The continuation ran into a throw: the field gets the error and completes as null. */
function recover(error: unknown, onSuccess: OnSuccess, onError: OnError): void {
  onError(error);
  try {
    onSuccess(null);
  } catch {
    // Completing as null cannot read anything that throws; if it does, the error is already recorded.
  }
}

function complete(value: unknown, onSuccess: OnSuccess, onError: OnError): void {
  try {
    onSuccess(value);
  } catch (error) {
    recover(error, onSuccess, onError);
  }
}

function settled(ctx: JitExecutionContext): void {
  ctx.promiseCounter -= 1;
  if (ctx.promiseCounter === 0) ctx.resolve?.(ctx);
}

/** graphql-jit's `resolvePromise`, with both continuations guarded. */
function resolvePromise(
  ctx: JitExecutionContext,
  promise: PromiseLike<unknown>,
  onSuccess: OnSuccess,
  onError: OnError,
): void {
  ctx.promiseCounter += 1;
  promise.then(
    (result) => {
      complete(result, onSuccess, onError);
      settled(ctx);
    },
    (error) => {
      try {
        onError(error);
      } catch {
        // onError only records the error; nothing to add if that fails
      }
      settled(ctx);
    },
  );
}

/** The contract the patch relies on: graphql-jit's runtime object and the two handlers it replaces. */
export function jitContinuationsContract(runtime?: JitRuntime): string | undefined {
  let r = runtime;
  try {
    r ??= loadRuntime();
  } catch (e) {
    return `graphql-jit/dist/runtime.js cannot be loaded: ${(e as Error).message}`;
  }
  if (
    typeof r.handleResolverResult !== 'function' ||
    typeof r.handleListItemResult !== 'function' ||
    typeof r.isPromise !== 'function'
  ) {
    return 'jitRuntime.handleResolverResult/handleListItemResult/isPromise not found';
  }
  return undefined;
}

/** Installs the guarded continuations on graphql-jit's runtime object (idempotent). */
export function guardJitRuntime(runtime: JitRuntime = loadRuntime()): JitRuntime {
  if (runtime.__guarded) return runtime;
  const broken = jitContinuationsContract(runtime);
  if (broken) throw new Error(`graphql-jit runtime changed: ${broken} (see core/runtime/graphql-jit-continuations.ts)`);
  const isPromise = runtime.isPromise.bind(runtime);
  const handle = (ctx: JitExecutionContext, value: unknown, onSuccess: OnSuccess, onError: OnError): void => {
    if (isPromise(value)) resolvePromise(ctx, value, onSuccess, onError);
    else complete(value, onSuccess, onError);
  };
  runtime.handleResolverResult = handle;
  runtime.handleListItemResult = handle;
  runtime.__guarded = true;
  return runtime;
}

function loadRuntime(): JitRuntime {
  // The same module instance graphql-jit's execution.js requires as "./runtime".
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('graphql-jit/dist/runtime.js') as { jitRuntime: JitRuntime }).jitRuntime;
}
