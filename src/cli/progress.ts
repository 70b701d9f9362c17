/** A one-line progress bar on a terminal; on anything else, nothing (logs stay clean). */
export function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let last = 0;
  return {
    update(done: number, total: number, label: string) {
      const now = Date.now();
      if (done < total && now - last < 50) return;
      last = now;
      const width = 30;
      const filled = total ? Math.round((done / total) * width) : width;
      const text = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}`;
      stream.write(`\r${text.slice(0, (stream.columns || 80) - 1).padEnd((stream.columns || 80) - 1)}`);
    },
    done() {
      stream.write('\n');
    },
  };
}
