import net from 'node:net';
import type { NextFunction, Request, Response } from 'express';

/** `10.0.0.0/8`, `::1/128` or a bare address. */
export function isCidr(entry: string): boolean {
  const [addr, bits, extra] = entry.split('/');
  if (extra !== undefined || net.isIP(addr) === 0) return false;
  if (bits === undefined) return true;
  const max = net.isIP(addr) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/** IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) are matched as IPv4. */
function unmap(ip: string): string {
  return ip.startsWith('::ffff:') && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
}

function compile(whitelist: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of whitelist) {
    const [a, bits] = entry.split('/');
    const type = net.isIPv4(a) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(a, type);
    else list.addSubnet(a, Number(bits), type);
  }
  return list;
}

function allowedBy(list: net.BlockList, ip: string | undefined): boolean {
  if (!ip) return false;
  const addr = unmap(ip);
  return list.check(addr, net.isIPv4(addr) ? 'ipv4' : 'ipv6');
}

export function ipAllowed(ip: string | undefined, whitelist: string[]): boolean {
  return allowedBy(compile(whitelist), ip);
}

/** The whitelist compiled once: a peer address → allowed. */
export function whitelistCheck(whitelist: string[]): (ip: string | undefined) => boolean {
  const list = compile(whitelist);
  return (ip) => allowedBy(list, ip);
}

/**
 * GitLab answers 404 to health and metrics requests from outside `monitoring_whitelist`
 * (https://docs.gitlab.com/ee/administration/monitoring/ip_allowlist.html). The peer address of the
 * TCP connection is used, never X-Forwarded-For, which any client can set.
 */
export function monitoringWhitelist(whitelist: string[]) {
  const allowed = whitelistCheck(whitelist);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (allowed(req.socket.remoteAddress)) return next();
    res.status(404).type('text/plain').send('Not Found');
  };
}
