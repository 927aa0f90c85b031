// What every command of the CLI does with a bad flag: say so, suggest the flag that was probably
// meant, show the usage and exit with code 2.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { closest, distance } from "fastest-levenshtein";
import type { CommandIo } from "./cli-io.js";
import { printable } from "./output/printable.js";

/** A `parseArgs` options table. */
type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * A function that prints `message` and `usage` on the command's stderr and exits with code 2. The
 * message quotes what was given, which may be the API key in the wrong place (`--url <key>`): it
 * is printed without the key of PAYMENTS_API_KEY, and without control characters.
 */
export function usageFailure(usage: string, io: CommandIo): (message: string) => never {
  return (message) => {
    io.err(`payments-mock: ${printable(message, io.env.PAYMENTS_API_KEY ?? "")}\n\n${usage}\n`);
    return io.exit(2);
  };
}

/**
 * `argv` read strictly against the options table `options` (positional arguments and `--no-` flags
 * only where `allow` says); a bad flag is `fail`'s usage failure, naming the flag probably meant.
 */
export function parseCommandLine<
  const O extends Options,
  const P extends boolean,
  const N extends boolean = false,
>(
  argv: string[],
  options: O,
  fail: (message: string) => never,
  allow: { positionals: P; negatives?: N },
) {
  const parsed = (() => {
    try {
      return parseArgs({
        args: negativeValuesJoined(argv, options),
        options,
        strict: true,
        allowPositionals: allow.positionals,
        allowNegative: allow.negatives ?? false,
        tokens: true,
      });
    } catch (error) {
      return fail(argsProblem(error, flagsOf(options)));
    }
  })();
  const repeated = repeatedOption(parsed.tokens, options);
  if (repeated !== undefined) {
    fail(
      `${repeated} was given more than once: give it once (only options marked repeatable take several)`,
    );
  }
  const contradicted = contradictedFlag(parsed.tokens);
  if (contradicted !== undefined) {
    fail(`--${contradicted} and --no-${contradicted} were both given: give one of them`);
  }
  return { values: parsed.values, positionals: parsed.positionals };
}

/**
 * `argv` with a value that starts with a dash and a digit (`--port -1`) joined to its option
 * (`--port=-1`): parseArgs calls it ambiguous, where the option's own rule says what is wrong.
 * No flag of the CLI is a dash and a digit; nothing after `--` is touched.
 */
function negativeValuesJoined(argv: string[], options: Options): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === "--") {
      joined.push(...argv.slice(index));
      break;
    }
    const next = argv[index + 1];
    const option = arg.startsWith("--") ? options[arg.slice(2)] : undefined;
    if (option?.type === "string" && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else joined.push(arg);
  }
  return joined;
}

/**
 * The first option that takes one value but was given several times (`--port 1 --port 2`, where
 * parseArgs keeps the last), as the user spelled it; options marked `multiple` may repeat.
 */
function repeatedOption(
  tokens: readonly { kind: string; name?: string }[],
  options: Options,
): string | undefined {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined) continue;
    const option = options[token.name];
    if (option?.type !== "string" || option.multiple === true) continue;
    if (seen.has(token.name)) return `--${token.name}`;
    seen.add(token.name);
  }
  return undefined;
}

/**
 * The first flag given both ways (`--cors --no-cors`, where parseArgs keeps the last): which
 * one the user meant is not for the CLI to guess. The same way twice (`--quiet --quiet`) is taken.
 */
function contradictedFlag(
  tokens: readonly { kind: string; name?: string; rawName?: string }[],
): string | undefined {
  const negated = new Map<string, boolean>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined || token.rawName === undefined)
      continue;
    const isNegated = token.rawName === `--no-${token.name}`;
    const before = negated.get(token.name);
    if (before !== undefined && before !== isNegated) return token.name;
    negated.set(token.name, isNegated);
  }
  return undefined;
}

/** The flags a `parseArgs` options table accepts: `--name`, `-x`, and `--no-name` for booleans. */
function flagsOf(options: Options): string[] {
  return Object.entries(options).flatMap(([name, option]) => [
    `--${name}`,
    ...(option.type === "boolean" ? [`--no-${name}`] : []),
    ...(option.short === undefined ? [] : [`-${option.short}`]),
  ]);
}

/**
 * `parseArgs`'s complaint in the CLI's words: an unknown flag is named with the closest known one
 * when it is a likely typo (`--reportt` → `--report`), instead of advice about positionals.
 */
function argsProblem(error: unknown, flags: readonly string[]): string {
  const { code, message } = error as { code?: string; message: string };
  const unknown =
    code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /'([^']+)'/.exec(message)?.[1] : undefined;
  if (unknown === undefined) return message;
  const likely = closest(unknown, flags);
  // A typo is a letter or two, or a third of a long flag's letters.
  const near = distance(unknown, likely) <= Math.max(2, Math.floor(unknown.length / 3));
  return near
    ? `unknown option ${unknown}; did you mean ${likely}?`
    : `unknown option ${unknown}; the options are listed below`;
}

/** Why an empty --host is refused: Node listens on every interface for it. */
export const EMPTY_HOST =
  "--host is empty: give the interface to listen on, such as 127.0.0.1 (0.0.0.0 for every one), or leave --host out";

/** The port in `value` (from `source`, such as `--port` or `PORT`), or a usage failure. */
export function parsePort(value: string, source: string, fail: (message: string) => never): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    fail(`${source} must be an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}
