import pino, { type DestinationStream, type Logger } from 'pino';
import { serializeError } from './errors/redact-sql';

/** JSON lines on stdout; errors are serialized with SQL literals redacted (core/errors/redact-sql.ts). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'gitlab-admin' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
