/**
 * A count that updates in place on a terminal (flis record): the exchanges
 * and violations so far, on one line under the log, cleared before each new
 * log line. Nothing at all when the stream is not a terminal (a pipe, a CI log).
 */
export interface LiveCount {
  show(stats: { exchanges: number; violations: number } | undefined): void;
  clear(): void;
}

export function countLine(stats: { exchanges: number; violations: number }): string {
  return `${stats.exchanges} exchange${stats.exchanges === 1 ? '' : 's'}, ${stats.violations} violation${stats.violations === 1 ? '' : 's'} so far (Ctrl-C stops)`;
}

export function liveCount(stream: NodeJS.WriteStream | undefined): LiveCount {
  if (!stream?.isTTY) return { show: () => {}, clear: () => {} };
  let shown = false;
  return {
    show(stats) {
      if (!stats) return;
      stream.write(`\r\x1b[K${countLine(stats)}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
