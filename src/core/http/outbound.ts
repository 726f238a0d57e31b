import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * Requests this service sends to addresses users give it (system hooks; README "System hooks"), with
 * the server-side request forgery guard later GitLab applies (its UrlBlocker): only http and https;
 * a host that resolves to a loopback, private, link-local (cloud metadata), shared, multicast or
 * unspecified address is refused unless local requests are allowed (application setting
 * `allow_local_requests_from_system_hooks`). The check runs when the URL is saved and again on every
 * request, and the connection goes to the very address that was checked (no second DNS answer can
 * slip in: DNS rebinding). Redirects are never followed.
 */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');

const LOCAL_NETWORK = new BlockList();
for (const [net, bits] of [
  ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], // private
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['192.0.0.0', 24], ['198.18.0.0', 15], // IETF protocol assignments, benchmarking
  ['224.0.0.0', 4], ['240.0.0.0', 4], // multicast, reserved and broadcast
] as const) LOCAL_NETWORK.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['fec0::', 10]] as const) LOCAL_NETWORK.addSubnet(net, bits, 'ipv6');

export class BlockedUrlError extends Error {
  constructor(reason: string) {
    super(`is blocked: ${reason}`);
  }
}

/** An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged by its IPv4 part. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return { address: m[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** The refusal for one resolved address, or undefined when it may be reached. */
export function addressRefusal(address: string, allowLocal: boolean): string | undefined {
  if (allowLocal) return undefined;
  const a = unmapped(address);
  if (LOOPBACK.check(a.address, a.family)) return 'Requests to localhost are not allowed';
  if (LOCAL_NETWORK.check(a.address, a.family)) return 'Requests to the local network are not allowed';
  return undefined;
}

export interface CheckedUrl {
  url: URL;
  /** The address the connection must go to (the one that was checked). */
  address: string;
  family: 4 | 6;
}

/** Parses and checks `raw`; throws BlockedUrlError with GitLab's reason. */
export async function checkOutboundUrl(raw: string, allowLocal: boolean): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError('Only allowed schemes are http, https');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedUrlError('Only allowed schemes are http, https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new BlockedUrlError('Host cannot be resolved or invalid');
  let answers: { address: string; family: number }[];
  try {
    answers = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new BlockedUrlError('Host cannot be resolved or invalid');
  }
  if (answers.length === 0) throw new BlockedUrlError('Host cannot be resolved or invalid');
  // Every answer must pass: a name that also resolves to a local address is refused.
  for (const a of answers) {
    const refusal = addressRefusal(a.address, allowLocal);
    if (refusal) throw new BlockedUrlError(refusal);
  }
  return { url, address: answers[0].address, family: answers[0].family === 6 ? 6 : 4 };
}

export interface OutboundResult {
  /** HTTP status, or null when no response arrived (refused, timed out, blocked). */
  status: number | null;
  /** The start of the response body (at most BODY_KEPT bytes), for the delivery log. */
  body: string;
  durationMs: number;
  /** Why no response arrived. */
  error?: string;
}

const BODY_KEPT = 2048;

/**
 * POSTs `body` as JSON to an already checked URL, connecting to the checked address; resolves (never
 * rejects) with what happened. `timeoutMs` bounds the whole exchange (GitLab's hooks: 10 s).
 */
export function postJson(target: CheckedUrl, body: string, headers: Record<string, string>, opts: { timeoutMs: number; verifyTls: boolean }): Promise<OutboundResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  const pinned: LookupFunction = (_host, options, cb) => {
    const o = options as { all?: boolean };
    if (o.all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
  const { url } = target;
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = mod.request(
      {
        method: 'POST',
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        rejectUnauthorized: opts.verifyTls,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < BODY_KEPT) {
            chunks.push(c.subarray(0, BODY_KEPT - kept));
            kept += Math.min(c.length, BODY_KEPT - kept);
          }
        });
        res.on('end', () => done({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), durationMs: elapsed() }));
        res.on('error', (e) => done({ status: res.statusCode ?? null, body: '', durationMs: elapsed(), error: e.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    req.on('error', (e) => done({ status: null, body: '', durationMs: elapsed(), error: e.message }));
    req.end(body);
  });
}
