import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../src/core/db/embedded/embedded-postgres';
import { openSharedListener, type SharedListener } from '../../src/ops/shared-listener';

// The node behaviour the supervisor relies on (src/ops/shared-listener.ts): a socket bound with
// node's internal `net._createServerHandle` in one process, listened on by others it was sent to,
// stays open while only the binding process holds it. These fail if node changes any of it.

const CHILD = path.join(__dirname, 'fixtures/socket-child.js');

function get(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: 20_000 }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

/** A child listening on the listener's socket (as a worker does), once it says so. */
async function childOn(listener: SharedListener): Promise<ChildProcess> {
  const child = fork(CHILD, [], { stdio: 'ignore' });
  await new Promise<void>((resolve) => {
    child.on('message', (m) => m === 'listening' && resolve());
    child.send('socket', listener.handle as unknown as net.Server);
  });
  return child;
}

const exited = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));

describe('the shared listening socket', () => {
  it('is bound without listening: connections are refused until a process listens on it', async () => {
    const listener = await openSharedListener('127.0.0.1', await freePort());
    try {
      await expect(get(listener.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      listener.close();
    }
  });

  it('keeps a connection waiting while no process listens, and the next one answers it', async () => {
    const listener = await openSharedListener('127.0.0.1', await freePort());
    const children: ChildProcess[] = [];
    try {
      const first = await childOn(listener);
      children.push(first);
      expect(await get(listener.port)).toBe(String(first.pid));
      first.kill('SIGKILL');
      await exited(first);

      const waiting = get(listener.port);
      const second = await childOn(listener);
      children.push(second);
      expect(await waiting).toBe(String(second.pid));
    } finally {
      for (const c of children) c.kill('SIGKILL');
      listener.close();
    }
  });

  it('reports a port in use when it binds, and resolves a host name and port 0', async () => {
    const taken = await openSharedListener('127.0.0.1', 0);
    try {
      const child = await childOn(taken); // listening, as a running service's socket is
      await expect(openSharedListener('127.0.0.1', taken.port)).rejects.toThrow(
        `bind EADDRINUSE: address already in use 127.0.0.1:${taken.port}`,
      );
      child.kill('SIGKILL');
      await exited(child);
      const byName = await openSharedListener('localhost', 0);
      expect(byName.port).toBeGreaterThan(0);
      byName.close();
    } finally {
      taken.close();
    }
  });
});
