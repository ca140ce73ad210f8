// The strictness citty's parser leaves out (it reads an unknown option as one more value, a missing
// value as ""): checked on the raw words before citty's values are used, with the messages the CLI
// has always printed (those of node:util's strict parseArgs, which it used to run first).

/** Each declared option's kind; positional arguments are allowed when `positionals` is true. */
export interface OptionKinds {
  options: Readonly<Record<string, "boolean" | "string">>;
  positionals: boolean;
}

/**
 * The first problem of `argv` for a command with these options, in command-line order, or
 * undefined: an unknown option (no option has a short form, so `-x` is unknown too), a value
 * missing or given to a flag, a value that looks like an option (`--out --json`), a positional
 * argument to a command that takes none. `--` ends the options.
 */
export function strictOptionsProblem(argv: readonly string[], kinds: OptionKinds): string | undefined {
  const words = [...argv];
  while (words.length > 0) {
    const word = words.shift() as string;
    if (word === "--") return kinds.positionals || words.length === 0 ? undefined : unexpected(words[0] as string);
    if (word.length >= 2 && word.startsWith("-") && !word.startsWith("--")) return `unknown option -${word.charAt(1)}`;
    if (word.length > 2 && word.startsWith("--")) {
      // `--name=value`: an "=" after the first letter of the name.
      const inline = word.includes("=", 3);
      const name = inline ? word.slice(2, word.indexOf("=")) : word.slice(2);
      const kind = Object.hasOwn(kinds.options, name) ? kinds.options[name] : undefined;
      if (kind === undefined) return `unknown option --${name}`;
      if (kind === "boolean") {
        if (inline) return `Option '--${name}' does not take an argument`;
        continue;
      }
      if (inline) continue;
      const value = words.shift();
      if (value === undefined) return `Option '--${name} <value>' argument missing`;
      if (value.length > 1 && value.startsWith("-"))
        return `Option '--${name}' argument is ambiguous.\nDid you forget to specify the option argument for '--${name}'?\nTo specify an option argument starting with a dash use '--${name}=-XYZ'.`;
      continue;
    }
    if (!kinds.positionals) return unexpected(word);
  }
  return undefined;
}

function unexpected(word: string): string {
  return `Unexpected argument '${word}'. This command does not take positional arguments`;
}
