import dns from 'node:dns/promises';
import net from 'node:net';
import util from 'node:util';
import { SOCKET, sendToSupervisor } from './worker-messages';
import { createServerHandle, type ServerHandle } from '../core/runtime';

/**
 * The listening socket of `npm start`, bound by the supervisor's primary and handed to every worker
 * (docs/operations.md#a-crash-is-not-an-outage).
 *
 * Why not node:cluster's own sharing: its primary closes the socket when the last worker holding it
 * exits, so while every worker is dead (both killed by requests, or WORKERS=1) connections are
 * refused. Here the primary keeps its copy of the socket for the service's whole life: a connection
 * that arrives while no worker accepts waits in the kernel's backlog and is answered by the
 * replacement once it listens. The primary never accepts from it (it never calls listen on it), so it
 * still does no work per connection; each worker accepts from the same socket as before.
 *
 * The handle is bound without listening through node's internal `net._createServerHandle`, the function
 * node:cluster itself uses for the same purpose (core/runtime: its contract is tested there).
 */

export interface SharedListener {
  /** Passed to workers with `worker.send(message, handle)`; a worker listens on it (below). */
  handle: ServerHandle;
  /** The bound port (PORT, or the one the system chose for PORT=0). */
  port: number;
  close(): void;
}

function systemError(errno: number, syscall: string, address: string, port: number): Error {
  const [code, description] = util.getSystemErrorMap().get(errno) ?? [`E${-errno}`, 'unknown error'];
  return Object.assign(new Error(`${syscall} ${code}: ${description} ${address}:${port}`), { code, errno, syscall });
}

/** Binds host:port (resolving a host name as `server.listen` does) without listening. */
export async function openSharedListener(host: string, port: number): Promise<SharedListener> {
  let address = host;
  let family = net.isIP(host);
  if (family === 0) ({ address, family } = await dns.lookup(host));
  const handle = createServerHandle(address, port, family);
  if (typeof handle === 'number') throw systemError(handle, 'bind', address, port);
  // libuv reports EADDRINUSE of a bind only at the first listen or getsockname: ask now, before any fork.
  const bound: { port?: number } = {};
  const err = handle.getsockname(bound);
  if (err !== 0) {
    handle.close();
    throw systemError(err, 'bind', address, port);
  }
  let open = true;
  return {
    handle,
    port: bound.port ?? port,
    close: () => {
      if (open) handle.close();
      open = false;
    },
  };
}

/** Worker side: asks the supervisor for the socket, waits for it and listens on it. */
export function listenOnSupervisorSocket(server: net.Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const received = (message: unknown, handle: unknown) => {
      if ((message as { supervisor?: unknown } | null)?.supervisor !== SOCKET || handle === undefined) return;
      process.off('message', received);
      server.once('error', reject);
      server.listen(handle, () => {
        server.off('error', reject);
        resolve();
      });
    };
    process.on('message', received);
    sendToSupervisor({ supervisor: SOCKET });
  });
}
