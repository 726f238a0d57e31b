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

describe('MONITORING_PORT and MONITORING_HOST', () => {
  it('unset: the monitoring endpoints stay on PORT', () => {
    expect(loadConfig({}).monitoringPort).toBeUndefined();
  });

  it('a port of its own, on HOST unless MONITORING_HOST says otherwise', () => {
    expect(loadConfig({ HOST: '0.0.0.0', MONITORING_PORT: '9090' })).toMatchObject({
      monitoringPort: 9090,
      monitoringHost: '0.0.0.0',
    });
    expect(loadConfig({ MONITORING_PORT: '9090', MONITORING_HOST: '10.0.0.5' }).monitoringHost).toBe('10.0.0.5');
  });

  it('refuses PORT itself, a bad port, and MONITORING_HOST alone', () => {
    expect(() => loadConfig({ PORT: '9090', MONITORING_PORT: '9090' })).toThrow(
      'MONITORING_PORT must differ from PORT (9090): it is a listener of its own',
    );
    expect(() => loadConfig({ MONITORING_PORT: 'metrics' })).toThrow(
      'MONITORING_PORT must be a port number from 1 to 65535, got "metrics"',
    );
    expect(() => loadConfig({ MONITORING_HOST: '127.0.0.1' })).toThrow('MONITORING_HOST needs MONITORING_PORT');
  });
});
