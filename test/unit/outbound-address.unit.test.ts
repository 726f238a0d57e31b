import { addressRefusal } from '../../src/core/http/outbound';

/**
 * The system hooks' SSRF guard on one address, as a URL literal or a DNS answer hands it over: an IPv6
 * address that embeds an IPv4 one is judged as that IPv4 address (docs/security.md#ssrf-system-hook-urls).
 */
const LOCALHOST = 'Requests to localhost are not allowed';
const LOCAL_NETWORK = 'Requests to the local network are not allowed';

describe('addressRefusal', () => {
  it('judges each embedded-IPv4 IPv6 form by its IPv4 address, compressed or dotted (as getaddrinfo prints them)', () => {
    const cases: [string, string | undefined][] = [
      // IPv4-compatible ::/96 (:: and ::1 are 0.0.0.0 and 0.0.0.1)
      ['::7f00:1', LOCALHOST],
      ['::127.0.0.1', LOCALHOST],
      ['::', LOCALHOST],
      ['::1', LOCALHOST],
      ['::a00:1', LOCAL_NETWORK],
      ['::808:808', undefined],
      // mapped ::ffff:0:0/96
      ['::ffff:7f00:1', LOCALHOST],
      ['::ffff:127.0.0.1', LOCALHOST],
      ['::ffff:192.168.1.1', LOCAL_NETWORK],
      ['::ffff:8.8.8.8', undefined],
      // translated ::ffff:0:0:0/96
      ['::ffff:0:7f00:1', LOCALHOST],
      ['::ffff:0:127.0.0.1', LOCALHOST],
      ['::ffff:0:a9fe:a9fe', LOCAL_NETWORK],
      ['::ffff:0:808:808', undefined],
      // NAT64 64:ff9b::/96 and the local-use 64:ff9b:1::/48
      ['64:ff9b::7f00:1', LOCALHOST],
      ['64:ff9b::127.0.0.1', LOCALHOST],
      ['64:ff9b::a00:1', LOCAL_NETWORK],
      ['64:ff9b::169.254.169.254', LOCAL_NETWORK],
      ['64:ff9b::808:808', undefined],
      ['64:ff9b:1::7f00:1', LOCALHOST],
      ['64:ff9b:1::c0a8:101', LOCAL_NETWORK],
      ['64:ff9b:1:ffff::10.1.2.3', LOCAL_NETWORK],
      ['64:ff9b:1::808:808', undefined],
      // 6to4 2002::/16, the IPv4 in bits 16-47
      ['2002:7f00:1::', LOCALHOST],
      ['2002:7f00:0001:abcd::1', LOCALHOST],
      ['2002:a00:1::1', LOCAL_NETWORK],
      ['2002:ac10:1::', LOCAL_NETWORK],
      ['2002:808:808::', undefined],
      ['2002:0808:0808:1::1', undefined],
    ];
    for (const [address, refusal] of cases)
      expect([address, addressRefusal(address, false)]).toEqual([address, refusal]);
  });

  it('keeps judging plain IPv4 and IPv6 addresses as before, and allows everything when local requests are allowed', () => {
    expect(addressRefusal('127.0.0.1', false)).toBe(LOCALHOST);
    expect(addressRefusal('0.0.0.0', false)).toBe(LOCALHOST);
    expect(addressRefusal('10.1.2.3', false)).toBe(LOCAL_NETWORK);
    expect(addressRefusal('100.64.0.1', false)).toBe(LOCAL_NETWORK);
    expect(addressRefusal('224.0.0.1', false)).toBe(LOCAL_NETWORK);
    expect(addressRefusal('fd00::1', false)).toBe(LOCAL_NETWORK);
    expect(addressRefusal('fe80::1', false)).toBe(LOCAL_NETWORK);
    expect(addressRefusal('ff02::1', false)).toBe(LOCAL_NETWORK);
    expect(addressRefusal('8.8.8.8', false)).toBeUndefined();
    expect(addressRefusal('2001:4860:4860::8888', false)).toBeUndefined();
    // Not an embedding prefix: 64:ff9b:2:: and 2003:: are ordinary IPv6 addresses.
    expect(addressRefusal('64:ff9b:2::7f00:1', false)).toBeUndefined();
    expect(addressRefusal('2003:7f00:1::', false)).toBeUndefined();
    for (const a of ['127.0.0.1', '::ffff:0:127.0.0.1', '64:ff9b::a00:1', '2002:7f00:1::'])
      expect(addressRefusal(a, true)).toBeUndefined();
  });
});
