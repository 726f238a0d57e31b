import { addressGroup } from '../../src/core/graphql/ws-admission';

/** The address pending WebSocket upgrades count under (no database): one IPv4 address, or one IPv6 /64. */
describe('addressGroup', () => {
  it('keeps IPv4 addresses (also IPv4-mapped ones) and groups IPv6 by /64', () => {
    expect(addressGroup('127.0.0.2')).toBe('127.0.0.2');
    expect(addressGroup('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(addressGroup('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002::7')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup(undefined)).toBe('unknown');
  });
});
