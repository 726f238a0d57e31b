/**
 * Per-request dataloaders. Each module contributes its own (AppModule.loaders) and declares their
 * types by augmenting this interface:
 *   declare module '../../core/context/loaders' { interface Loaders extends GroupLoaders {} }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Loaders {}
