import { parseArgs, stripVTControlCharacters } from "node:util";
import { type ArgsDef, type CommandDef, defineCommand, renderUsage } from "citty";
import { RcmError } from "../errors/rcm-error.js";

/**
 * A command's arguments, declared once: the help is rendered from these (with citty's
 * renderUsage) and the command line is parsed and checked against them. Parsing is node:util's
 * strict parseArgs (citty's own parser accepts unknown options, and this CLI rejects them);
 * allowed values, numbers and required options are checked here, in the declaration order
 * (required options first), each with its declared message.
 */
export type ArgSpec = FlagSpec | TextSpec | ChoiceSpec | ListSpec | NumberSpec | PositionalSpec;

/** `--name`, off unless given. */
interface FlagSpec {
  type: "boolean";
  description: string;
}

/** `--name <value>`: any text. */
interface TextSpec {
  type: "string";
  description: string;
  valueHint?: string;
  default?: string;
  required?: boolean;
}

/** What a bad value prints: the option (`--mode`), the allowed values and the value given. */
export type Invalid = (flag: string, options: readonly string[], value: string) => string;

/** `--name <one of options>`. */
interface ChoiceSpec {
  type: "enum";
  description: string;
  options: readonly string[];
  default?: string;
  invalid: Invalid;
}

/** `--name a,b`: a comma-separated list of options (the default written the same way). */
interface ListSpec {
  type: "list";
  description: string;
  options: readonly string[];
  default?: string;
  /** The message for one unknown item. */
  invalid: Invalid;
}

/** `--name <number>`: an integer >= min, or a number in [min, max]. */
interface NumberSpec {
  type: "number";
  description: string;
  default?: number;
  integer?: boolean;
  min: number;
  max?: number;
  /** Said after the range when the value is out of it: what the number means. */
  meaning?: string;
}

/** An argument without a dash; the command checks how many it got (its messages say what they are). */
interface PositionalSpec {
  type: "positional";
  description: string;
  required?: boolean;
  /** Takes the rest of the positional arguments. */
  variadic?: boolean;
}

export type ArgSpecs = Record<string, ArgSpec>;

type ValueOf<A extends ArgSpec> = A extends FlagSpec
  ? boolean
  : A extends { type: "enum"; options: readonly (infer O)[] }
    ? A extends { default: string }
      ? O
      : O | undefined
    : A extends { type: "list"; options: readonly (infer O)[] }
      ? A extends { default: string }
        ? O[]
        : O[] | undefined
      : A extends NumberSpec
        ? A extends { default: number }
          ? number
          : number | undefined
        : A extends { type: "positional"; variadic: true }
          ? string[]
          : A extends { default: string } | { required: true }
            ? string
            : string | undefined;

/** The parsed command line: each declared argument's value, and every positional argument in `_`. */
export type Parsed<T extends ArgSpecs> = { -readonly [K in keyof T]: ValueOf<T[K]> } & { _: string[] };

/** A command: what it does (one line; `details` for more), its arguments, and what it runs. */
export interface Command<T extends ArgSpecs = ArgSpecs> {
  name: string;
  description: string;
  /** Printed after the arguments in the command's help. */
  details?: string;
  args: T;
  /**
   * The message when a required option is missing; by default `<command> needs --name <hint>`
   * for the first one missing.
   */
  missing?: string;
  /** Writes the command's output; returns the exit status (0 when nothing is returned). */
  run(args: Parsed<T>): Promise<number | undefined>;
}

/** A command of commands (`bench run`, `bench merge`...). */
export interface CommandGroup {
  name: string;
  description: string;
  details?: string;
  subCommands: Record<string, Command | CommandGroup>;
}

export function defineCli<const T extends ArgSpecs>(command: Command<T>): Command<T> {
  return command;
}

export function isGroup(command: Command | CommandGroup): command is CommandGroup {
  return "subCommands" in command;
}

/** The values of `argv` for `command` (called as `path`, e.g. "bench run"), or a usage error. */
export function parseDeclared<T extends ArgSpecs>(command: Command<T>, path: string, argv: readonly string[]): Parsed<T> {
  const specs = Object.entries(command.args) as [string, ArgSpec][];
  const options: Record<string, { type: "string" | "boolean" }> = {};
  for (const [name, spec] of specs) if (spec.type !== "positional") options[name] = { type: spec.type === "boolean" ? "boolean" : "string" };
  const positionals = specs.filter(([, spec]) => spec.type === "positional");
  // Thrown as node:util's TypeError (ERR_PARSE_ARGS_*): the CLI prints it as a usage error.
  const parsed = parseArgs({ args: [...argv], options, allowPositionals: positionals.length > 0, strict: true });
  const given = parsed.values as Record<string, string | boolean | undefined>;

  for (const [name, spec] of specs) {
    if (spec.type === "string" && spec.required && given[name] === undefined) {
      throw new RcmError("usage", command.missing ?? `${path} needs --${name} <${spec.valueHint ?? "value"}>`);
    }
  }
  const values: Record<string, unknown> = { _: parsed.positionals };
  for (const [name, spec] of specs) {
    const text = given[name];
    if (spec.type === "positional") continue;
    if (spec.type === "boolean") values[name] = text === true;
    else if (spec.type === "string") values[name] = text ?? spec.default;
    else if (spec.type === "enum") values[name] = choice(name, spec, typeof text === "string" ? text : spec.default);
    else if (spec.type === "list") values[name] = list(name, spec, typeof text === "string" ? text : spec.default);
    else values[name] = typeof text === "string" ? number(name, spec, text) : spec.default;
  }
  let rest = [...parsed.positionals];
  for (const [name, spec] of positionals) {
    if (spec.type !== "positional") continue;
    values[name] = spec.variadic ? rest : rest[0];
    rest = spec.variadic ? [] : rest.slice(1);
  }
  return values as Parsed<T>;
}

function choice(name: string, spec: ChoiceSpec, value: string | undefined): string | undefined {
  if (value !== undefined && !spec.options.includes(value)) throw new RcmError("usage", spec.invalid(`--${name}`, spec.options, value));
  return value;
}

function list(name: string, spec: ListSpec, text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(",").map((item) => item.trim());
  for (const item of items) if (!spec.options.includes(item)) throw new RcmError("usage", spec.invalid(`--${name}`, spec.options, item));
  return items;
}

function number(name: string, spec: NumberSpec, text: string): number {
  const value = Number(text);
  if (spec.integer) {
    if (!Number.isInteger(value) || value < spec.min) throw new RcmError("usage", `--${name} must be an integer >= ${spec.min}, got "${text}"`);
  } else if (!Number.isFinite(value) || value < spec.min || (spec.max !== undefined && value > spec.max)) {
    const meaning = spec.meaning === undefined ? "" : ` (${spec.meaning})`;
    throw new RcmError("usage", `--${name} must be a number in [${spec.min}, ${spec.max ?? "∞"}]${meaning}, got "${text}"`);
  }
  return value;
}

/** `--x must be one of a, b, c, got "d"` (`word`: "got" or "not", as each command has always said it). */
export function mustBeOneOf(word: "got" | "not"): Invalid {
  return (flag, options, value) => `${flag} must be one of ${options.join(", ")}, ${word} "${value}"`;
}

/** `--x must be a or b, not "c"`. */
export const mustBeEither: Invalid = (flag, options, value) => `${flag} must be ${options.join(" or ")}, not "${value}"`;

/** `--xs: unknown x "d" (one of a, b, c)`, for one item of a list. */
export function unknownItem(noun: string): Invalid {
  return (flag, options, value) => `${flag}: unknown ${noun} "${value}" (one of ${options.join(", ")})`;
}

/** The command (or group) as citty declares it, for its renderUsage. */
function cittyCommand(command: Command | CommandGroup, version: string): CommandDef {
  if (isGroup(command)) {
    const subCommands = Object.fromEntries(Object.entries(command.subCommands).map(([name, sub]) => [name, cittyCommand(sub, version)]));
    return defineCommand({ meta: { name: command.name, description: command.description, version }, subCommands });
  }
  const args: ArgsDef = {};
  for (const [name, spec] of Object.entries(command.args)) {
    const { description } = spec;
    if (spec.type === "positional") args[name] = { type: "positional", description, required: spec.required === true };
    else if (spec.type === "boolean") args[name] = { type: "boolean", description };
    else if (spec.type === "enum") args[name] = { type: "enum", description, options: [...spec.options], ...(spec.default === undefined ? {} : { default: spec.default }) };
    else if (spec.type === "list") args[name] = { type: "string", description, valueHint: spec.options.join(","), ...(spec.default === undefined ? {} : { default: spec.default }) };
    else if (spec.type === "number") args[name] = { type: "string", description, valueHint: spec.integer ? "n" : "number", ...(spec.default === undefined ? {} : { default: String(spec.default) }) };
    else args[name] = { type: "string", description, valueHint: spec.valueHint ?? "value", required: spec.required === true, ...(spec.default === undefined ? {} : { default: spec.default }) };
  }
  return defineCommand({ meta: { name: command.name, description: command.description, version }, args });
}

/**
 * The help of `command`, run as `<parent> <command.name>`: citty's rendering of the declarations,
 * then the command's details; without colours unless stdout is a terminal.
 */
export async function renderHelp(command: Command | CommandGroup, options: { parent: string; version: string; color: boolean }): Promise<string> {
  const parent = defineCommand({ meta: { name: options.parent, version: options.version } });
  const rendered = await renderUsage(cittyCommand(command, options.version), parent);
  // citty pads every column, the last one too, and ends a usage line without arguments with a space: no trailing spaces.
  const usage = (options.color ? rendered : stripVTControlCharacters(rendered)).replace(/ +(\u001b\[[0-9;]*m)*$/gm, "$1").trimEnd();
  return command.details === undefined ? usage : `${usage}\n\n${command.details}`;
}
