import { BlockList, isIP } from 'node:net';
import os from 'node:os';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * Requests this service sends to addresses users give it (system hooks; docs/security.md#ssrf-system-hook-urls), with
 * the server-side request forgery guard later GitLab applies (its UrlBlocker): only http and https;
 * a host that resolves to a loopback, private, link-local (cloud metadata), shared, multicast or
 * unspecified address is refused unless local requests are allowed (application setting
 * `allow_local_requests_from_system_hooks`); an IPv6 address that embeds an IPv4 one is judged as that
 * IPv4 address (`embeddedIpv4`). The check runs when the URL is saved and again on every
 * request, and the connection goes to the very address that was checked (no second DNS answer can
 * slip in: DNS rebinding). Redirects are never followed.
 */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4');
// ::1 and :: are IPv4-compatible addresses (0.0.0.1, 0.0.0.0): judged in 0.0.0.0/8 (`embeddedIpv4`).

const LOCAL_NETWORK = new BlockList();
for (const [net, bits] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16], // private
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['192.0.0.0', 24],
  ['198.18.0.0', 15], // IETF protocol assignments, benchmarking
  ['224.0.0.0', 4],
  ['240.0.0.0', 4], // multicast, reserved and broadcast
] as const)
  LOCAL_NETWORK.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['fec0::', 10],
] as const)
  LOCAL_NETWORK.addSubnet(net, bits, 'ipv6');

export class BlockedUrlError extends Error {
  constructor(reason: string) {
    super(`is blocked: ${reason}`);
  }
}

/** The host name did not resolve (or not in time). */
class UnresolvableHost extends BlockedUrlError {}

/** The eight 16-bit groups of an IPv6 address in any spelling (`::`, a trailing dotted IPv4), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.toLowerCase();
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups =
    tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : undefined;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address stands for, when it embeds one: IPv4-compatible (::/96, which also
 * holds :: and ::1), mapped (::ffff:0:0/96), translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96, and
 * the local-use 64:ff9b:1::/48, both read with the /96 layout: the IPv4 in the last 32 bits) and 6to4
 * (2002::/16, the IPv4 in bits 16-47). Such an address reaches that IPv4 host (through the kernel, a
 * translator or a relay), so it is judged as that host: a public one passes, a local one is refused.
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 6)) return ipv4Of(g[6], g[7]);
  if (zero(0, 5) && g[5] === 0xffff) return ipv4Of(g[6], g[7]);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Of(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && (zero(2, 6) || g[2] === 1)) return ipv4Of(g[6], g[7]);
  if (g[0] === 0x2002) return ipv4Of(g[1], g[2]);
  return undefined;
}

/** The address as the guard judges it: an IPv6 address that embeds an IPv4 one is judged by that IPv4 address. */
function judged(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  if (isIP(address) === 4) return { address, family: 'ipv4' };
  const v4 = embeddedIpv4(address);
  return v4 ? { address: v4, family: 'ipv4' } : { address, family: 'ipv6' };
}

/** The refusal for one resolved address, or undefined when it may be reached. */
export function addressRefusal(address: string, allowLocal: boolean): string | undefined {
  if (allowLocal) return undefined;
  const a = judged(address);
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

function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === os.hostname().toLowerCase();
}

/** Every address of a name, within `ms` when given (a lookup that does not answer in time fails). */
function resolveAll(host: string, ms?: number): Promise<{ address: string; family: number }[]> {
  const answer = lookup(host, { all: true, verbatim: true });
  if (ms === undefined) return answer;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS timeout')), ms);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/** Parses and checks `raw`; throws BlockedUrlError with GitLab's reason. */
export async function checkOutboundUrl(raw: string, allowLocal: boolean, lookupMs?: number): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError('Only allowed schemes are http, https');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BlockedUrlError('Only allowed schemes are http, https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new BlockedUrlError('Host cannot be resolved or invalid');
  // Names that are this machine whatever DNS says (RFC 6761's localhost, the host's own name): refused
  // before any lookup, so an unresolvable spelling of them is not saved either.
  if (!allowLocal && isLocalName(host)) throw new BlockedUrlError('Requests to localhost are not allowed');
  let answers: { address: string; family: number }[];
  try {
    answers = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolveAll(host, lookupMs);
  } catch {
    throw new UnresolvableHost('Host cannot be resolved or invalid');
  }
  if (answers.length === 0) throw new UnresolvableHost('Host cannot be resolved or invalid');
  // Every answer must pass: a name that also resolves to a local address is refused.
  for (const a of answers) {
    const refusal = addressRefusal(a.address, allowLocal);
    if (refusal) throw new BlockedUrlError(refusal);
  }
  return { url, address: answers[0].address, family: answers[0].family === 6 ? 6 : 4 };
}

/** How long a save waits for DNS before it takes the name as unresolvable (delivery checks again). */
const SAVE_LOOKUP_MS = 3000;

/**
 * The check when a URL is saved (a system hook): the scheme, and the addresses its host resolves to
 * now. A name that does not resolve (no DNS here, or not yet) is saved, as GitLab saves it (10.x's
 * UrlBlocker lets an unresolvable name through; later GitLab skips DNS at save time): the check that
 * counts is at delivery (`checkOutboundUrl`, which pins the address it checked). A name that resolves
 * to a local address is refused unless local requests are allowed.
 */
export async function checkOutboundUrlAtSave(raw: string, allowLocal: boolean): Promise<void> {
  try {
    await checkOutboundUrl(raw, allowLocal, SAVE_LOOKUP_MS);
  } catch (e) {
    if (e instanceof UnresolvableHost) return;
    throw e;
  }
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
export function postJson(
  target: CheckedUrl,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; verifyTls: boolean },
): Promise<OutboundResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  const pinned: LookupFunction = (_host, options, cb) => {
    const o = options as { all?: boolean };
    if (o.all)
      (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
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
        res.on('end', () =>
          done({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), durationMs: elapsed() }),
        );
        res.on('error', (e) =>
          done({ status: res.statusCode ?? null, body: '', durationMs: elapsed(), error: e.message }),
        );
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    req.on('error', (e) => done({ status: null, body: '', durationMs: elapsed(), error: e.message }));
    req.end(body);
  });
}
