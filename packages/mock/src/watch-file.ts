// Watches one file for changes, including editors that save by writing a new file and renaming it.
import { type FSWatcher, watch } from "node:fs";
import path from "node:path";

const SETTLE_MS = 100;

/** Calls onChange (once per burst of events) when the file changes; returns a function that stops watching. */
export function watchFile(file: string, onChange: () => void): () => void {
  const directory = path.dirname(path.resolve(file));
  const name = path.basename(file);
  let timer: NodeJS.Timeout | undefined;
  // The directory is watched, not the file: a rename-on-save replaces the file being watched.
  const watcher: FSWatcher = watch(directory, (_event, changed) => {
    if (changed !== null && changed !== name) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
