import net from 'node:net';

/**
 * Use of a node internal (one of core/runtime's; docs/runtime-patches.md): `net._createServerHandle`
 * binds an address without listening, the function node:cluster itself uses to share a socket
 * (lib/internal/cluster/shared_handle.js). The supervisor holds such a handle for the service's life
 * (ops/shared-listener.ts); nothing is replaced in node.
 */
export interface ServerHandle {
  close(callback?: () => void): void;
  getsockname(out: { address?: string; port?: number }): number;
}

interface NetInternals {
  _createServerHandle?: (address: string, port: number, addressType: number) => ServerHandle | number;
}

/** The contract the supervisor relies on: the internal is still a function. */
export function serverHandleContract(): string | undefined {
  return typeof (net as unknown as NetInternals)._createServerHandle === 'function'
    ? undefined
    : 'net._createServerHandle is not a function';
}

/** A bound, not listening, server handle for address:port; a negative errno when the bind failed. */
export function createServerHandle(address: string, port: number, family: number): ServerHandle | number {
  const create = (net as unknown as NetInternals)._createServerHandle;
  if (typeof create !== 'function')
    throw new Error(`node changed: ${serverHandleContract()} (see core/runtime/node-server-handle.ts)`);
  return create(address, port, family);
}
