import type { Logger } from 'pino';
import type { Config } from '../config';
import { startOrReuseEmbedded } from '../core/db/embedded/embedded-postgres';
import { createLogger } from '../core/logger';

/**
 * The database a maintenance command works on, as the service would: DATABASE_URL (its direct URL:
 * session features such as cursors and the start-up lock), else the embedded PostgreSQL of DATA_DIR,
 * reused when the service runs it, else started for the command and stopped after it.
 */
export interface CommandDatabase {
  url: string;
  /** true when the command started the embedded server (the service is not running on DATA_DIR). */
  owned: boolean;
  /** Stops an embedded server the command started. */
  stop(): Promise<void>;
}

/** A command's logger: warnings and above unless LOG_LEVEL asks for more (stdout is the command's report). */
export function commandLogger(config: Config): Logger {
  return createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
}

export async function commandDatabase(config: Config, logger: Logger): Promise<CommandDatabase> {
  if (config.databaseUrl)
    return { url: config.databaseDirectUrl ?? config.databaseUrl, owned: true, stop: async () => undefined };
  const embedded = await startOrReuseEmbedded({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    log: { info: (m) => logger.info(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
    onFatal: (m) => logger.fatal(m),
  });
  return { url: embedded.url, owned: embedded.owned, stop: () => embedded.stop() };
}

/** A failure with its own exit code: 2 wrong usage or settings, 1 anything else. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** Runs a command's `main`, printing `<name> failed: <message>` and exiting with its code on failure. */
export function runCommand(name: string, main: () => Promise<void>): void {
  main().catch((e: unknown) => {
    process.stderr.write(`${name} failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(e instanceof CommandFailed ? e.code : 1);
  });
}
