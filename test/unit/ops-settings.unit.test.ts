import { ConfigError, loadConfig } from '../../src/config';

// Operations settings of src/config.ts (docs/configuration.md#environment-variables).
describe('EMBEDDED_PG_PORT', () => {
  it('unset: no pinned port', () => {
    expect(loadConfig({}).embeddedPgPort).toBeUndefined();
    expect(loadConfig({ EMBEDDED_PG_PORT: '' }).embeddedPgPort).toBeUndefined();
  });

  it('a port pins it', () => {
    expect(loadConfig({ EMBEDDED_PG_PORT: '5433' }).embeddedPgPort).toBe(5433);
  });

  it.each(['0', '65536', '54x', '-1'])('refuses %s', (value) => {
    expect(() => loadConfig({ EMBEDDED_PG_PORT: value })).toThrow(
      new ConfigError(`EMBEDDED_PG_PORT must be a port number from 1 to 65535, got "${value}"`),
    );
  });

  it('is refused together with DATABASE_URL, where nothing is embedded', () => {
    expect(() => loadConfig({ EMBEDDED_PG_PORT: '5433', DATABASE_URL: 'postgres://a:b@db/x' })).toThrow(
      /EMBEDDED_PG_PORT is the embedded PostgreSQL's port; with DATABASE_URL set nothing is embedded/,
    );
  });
});
