/** A one-line progress bar on stderr (redrawn in place on a TTY, a line per 10% otherwise). */
export class ProgressBar {
  private lastPct = -1;
  private readonly started = Date.now();

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number): void {
    const pct = this.total === 0 ? 100 : Math.floor((done / this.total) * 100);
    if (pct === this.lastPct) return;
    const tty = this.out.isTTY;
    if (!tty && pct % 10 !== 0 && pct !== 100) return;
    this.lastPct = pct;
    const width = 30;
    const filled = Math.round((pct / 100) * width);
    const secs = ((Date.now() - this.started) / 1000).toFixed(1);
    const line = `${this.label.padEnd(16)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${done}/${this.total} ${secs}s`;
    this.out.write(tty ? `\r${line}${pct === 100 ? '\n' : ''}` : `${line}\n`);
  }
}
