import { isIPv6 } from 'node:net';
import { WebSocket } from 'ws';

/**
 * Which WebSocket upgrades this instance takes (docs/graphql.md#subscriptions-live-updates, limits). An upgraded socket is
 * *pending* until its `connection_init` is acknowledged. Pending sockets have their own bounds, per
 * client address and in all, apart from the acknowledged connections' MAX_CONNECTIONS: sockets that
 * never initialise cannot take the room of working clients. A pending socket that has sent nothing by
 * the init deadline is terminated at once (a graceful close would wait up to 30 s for a peer that does
 * not answer), and so is, at its deadline, one refused (4403, 4429) whose peer has not completed the close.
 */
export interface AdmissionLimits {
  /** Acknowledged connections. */
  connections: number;
  /** Pending sockets, all addresses together. */
  pending: number;
  /** Pending sockets of one client address (IPv6: one /64). */
  pendingPerAddress: number;
  initTimeoutMs: number;
}

export interface Refusal {
  status: 429 | 503;
  text: string;
}

export interface Admission {
  /** Before the handshake: null to go on, else the HTTP answer. */
  refusal(address: string | undefined): Refusal | null;
  /** The socket is upgraded: pending from now on, under the init deadline. */
  track(ws: WebSocket, address: string | undefined): void;
  /** `connection_init` accepted: the socket moves to the acknowledged connections; false when they are full. */
  acknowledge(ws: WebSocket): boolean;
}

/** The address a pending socket counts under: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64 (one host's usual share). */
export function addressGroup(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

interface Entry {
  group: string;
  acknowledged: boolean;
  heard: boolean;
  timer?: NodeJS.Timeout;
}

export function createAdmission(limits: AdmissionLimits): Admission {
  const entries = new WeakMap<WebSocket, Entry>();
  const pendingBy = new Map<string, number>();
  let pending = 0;
  let acknowledged = 0;

  const unpend = (e: Entry) => {
    pending -= 1;
    const n = (pendingBy.get(e.group) ?? 1) - 1;
    if (n > 0) pendingBy.set(e.group, n);
    else pendingBy.delete(e.group);
  };

  return {
    refusal(address) {
      if (acknowledged >= limits.connections || pending >= limits.pending)
        return { status: 503, text: 'Service Unavailable' };
      if ((pendingBy.get(addressGroup(address)) ?? 0) >= limits.pendingPerAddress)
        return { status: 429, text: 'Too Many Requests' };
      return null;
    },
    track(ws, address) {
      const entry: Entry = { group: addressGroup(address), acknowledged: false, heard: false };
      entries.set(ws, entry);
      pending += 1;
      pendingBy.set(entry.group, (pendingBy.get(entry.group) ?? 0) + 1);
      ws.once('message', () => (entry.heard = true));
      // Silent by the deadline, or refused and still closing: gone now. A socket whose connection_init is
      // still being authenticated is looked at again one deadline later.
      const arm = () => {
        entry.timer = setTimeout(check, limits.initTimeoutMs);
        entry.timer.unref();
      };
      const check = () => {
        if (entry.acknowledged || ws.readyState === WebSocket.CLOSED) return;
        if (!entry.heard || ws.readyState !== WebSocket.OPEN) return ws.terminate();
        arm();
      };
      arm();
      ws.once('close', () => {
        clearTimeout(entry.timer);
        if (entry.acknowledged) acknowledged -= 1;
        else unpend(entry);
      });
    },
    acknowledge(ws) {
      const entry = entries.get(ws);
      if (!entry || entry.acknowledged || ws.readyState !== WebSocket.OPEN) return false;
      if (acknowledged >= limits.connections) return false;
      clearTimeout(entry.timer);
      entry.acknowledged = true;
      acknowledged += 1;
      unpend(entry);
      return true;
    },
  };
}
