// The CLIs' request log, written in batches: the lines of every request answered in one turn of
// the event loop go out in one write at its end, where a write per line cost a busy mock a tenth
// of its time. `flush` writes what is pending at once (before a closing summary, at exit).

export interface LineWriter {
  (line: string): void;
  flush(): void;
}

export function lineWriter(write: (text: string) => void): LineWriter {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = `${pending.join("\n")}\n`;
    pending = [];
    write(text);
  };
  const log = (line: string) => {
    pending.push(line);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return Object.assign(log, { flush });
}

/** A line writer to standard output that writes what is pending when the process exits. */
export function stdoutLines(): LineWriter {
  const log = lineWriter((text) => process.stdout.write(text));
  process.once("exit", log.flush);
  return log;
}
