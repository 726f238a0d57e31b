import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'gitlab-admin' }, timestamp: pino.stdTimeFunctions.isoTime });
}
