// The files a command's options name: each must be a regular file. A FIFO (named pipe) would
// block the command until something wrote to it (or, given as an output, read from it), a device
// such as /dev/zero may never end, a directory cannot be read as one. Refused, naming the option
// and the rule, before anything opens the file; a path that is not there is the reader's to say
// (or, for an output, made).
import { type Stats, statSync } from "node:fs";
import { printable } from "./output/printable.js";

/** A file an option names: its path, and the option (or the words) that name it in a message. */
export interface NamedFile {
  file: string | undefined;
  /** Such as `--spec`, or `the fixture file`. */
  option: string;
  /** What to give the path to, in the fix (default: the option). */
  give?: string;
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

/** Why the file cannot be the regular file its option needs, or undefined when it can (or is not there). */
export function fileProblem({ file, option, give = option }: NamedFile): string | undefined {
  if (file === undefined) return undefined;
  let stat: Stats | undefined;
  try {
    stat = statSync(file, { throwIfNoEntry: false });
  } catch {
    // Not looked at (a part of the path is a file, no permission): the reader says why.
    return undefined;
  }
  if (stat === undefined || stat.isFile()) return undefined;
  return `${option} ${printable(file, "")} is ${kindOf(stat)}, not a regular file: give ${give} the path of a file`;
}

/** The first of the files that cannot be what its option needs is `fail`'s usage failure. */
export function refuseOtherThanFiles(files: NamedFile[], fail: (message: string) => never): void {
  for (const named of files) {
    const problem = fileProblem(named);
    if (problem !== undefined) fail(problem);
  }
}
