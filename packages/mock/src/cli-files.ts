// The files a command's options name: each must be a regular file. A FIFO (named pipe) would
// block the command until something wrote to it (or, given as an output, read from it), a device
// such as /dev/zero may never end, a directory cannot be read as one. Refused, naming the option
// and the rule, before anything opens the file. A path that is not there is refused too when the
// file is read (the reader's words named the file but not the option, and the server exited 1),
// and is made when it is an output: then its folder must be there, else the open failed later
// with a bare ENOENT that named no option. A file read whole at once (a document, a seed, a fixture) is refused
// past MAX_FILE_BYTES, before it is read: a file of a gigabyte failed with words about strings, or
// ran the process out of memory.
import { type Stats, statSync } from "node:fs";
import path from "node:path";
import { printable } from "./output/printable.js";

/**
 * How large a file read whole may be: 64 MiB, hundreds of times the API's document (under
 * 100 kB). The guides say so (docs/guides/cli.md).
 */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file an option names: its path, and the option (or the words) that name it in a message. */
export interface NamedFile {
  file: string | undefined;
  /** Such as `--spec`, or `the fixture file`. */
  option: string;
  /** What to give the path to, in the fix (default: the option). */
  give?: string;
  /**
   * Whether it is read whole at once, and so held to MAX_FILE_BYTES (default); not a file that is
   * read a line at a time (a traffic file) or only appended to.
   */
  whole?: boolean;
  /** A lower limit than MAX_FILE_BYTES for a file read whole, and what the file is in its message. */
  limit?: { bytes: number; for: string };
  /** Made when it is not there (an output, a cursor file): then its folder must be there. */
  made?: boolean;
  /** Read, so it must be there (a document, a seed, a profile, a traffic file). */
  needed?: boolean;
}

/** A size in the largest unit it has a whole one of, to a tenth: `1.5 GiB`. */
function sizeInWords(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let size = bytes;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(size.toFixed(1))} ${units[unit]}`;
}

/** What a path that is not a regular file is, in words. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Why the file cannot be the regular file its option needs (or is too large to read whole), or
 * undefined when it can be (or is not there).
 */
export function fileProblem({
  file,
  option,
  give = option,
  whole = true,
  limit = { bytes: MAX_FILE_BYTES, for: "a file read whole" },
  made = false,
  needed = false,
}: NamedFile): string | undefined {
  if (file === undefined) return undefined;
  // Such as `--report "$REPORT"` with REPORT unset: an open of "" failed with a bare ENOENT, and
  // `--state ""` served from memory, unsaid.
  if (file === "") return `${option} is empty: give ${give} the path of a file`;
  let stat: Stats | undefined;
  try {
    stat = statSync(file, { throwIfNoEntry: false });
  } catch {
    // Not looked at (a part of the path is a file, no permission): the reader says why.
    return undefined;
  }
  if (stat === undefined) {
    if (needed) {
      return `${option} ${printable(file, "")} does not exist: give ${give} the path of an existing file`;
    }
    return made ? folderProblem(file, option, give) : undefined;
  }
  const shown = printable(file, "");
  if (!stat.isFile()) {
    return `${option} ${shown} is ${kindOf(stat)}, not a regular file: give ${give} the path of a file`;
  }
  if (whole && stat.size > limit.bytes) {
    return `${option} ${shown} is ${sizeInWords(stat.size)} (${stat.size} bytes), past the limit of ${sizeInWords(limit.bytes)} (${limit.bytes} bytes) for ${limit.for}: give ${give} a smaller file`;
  }
  return undefined;
}

/** Why a file to be made at `file` cannot be (its folder is not there, or is not a folder). */
function folderProblem(file: string, option: string, give: string): string | undefined {
  const folder = path.dirname(path.resolve(file));
  let stat: Stats | undefined;
  try {
    stat = statSync(folder, { throwIfNoEntry: false });
  } catch {
    // Not looked at (no permission): the writer says why.
    return undefined;
  }
  if (stat?.isDirectory()) return undefined;
  const shown = printable(file, "");
  const where = printable(folder, "");
  return stat === undefined
    ? `${option} ${shown} is in a folder that does not exist (${where}): make the folder, or give ${give} a path in one that does`
    : `${option} ${shown} is in ${where}, which is not a folder: give ${give} a path in a folder`;
}

/** The first of the files that cannot be what its option needs is `fail`'s usage failure. */
export function refuseOtherThanFiles(files: NamedFile[], fail: (message: string) => never): void {
  for (const named of files) {
    const problem = fileProblem(named);
    if (problem !== undefined) fail(problem);
  }
}
