import { stripVTControlCharacters } from "node:util";
import { type ArgsDef, type CommandDef, defineCommand, type ParsedArgs, renderUsage } from "citty";
import { RcmError } from "../kit/errors/rcm-error.js";
import type { CommandContext } from "./cli-io.js";
import { type OptionKinds, strictOptionsProblem } from "./strict-options.js";

/**
 * A command's arguments, declared once: citty renders the help from them and parses the command
 * line (once, when it dispatches to the command), and they check what citty lets through: unknown
 * options and missing values (strict-options.ts), required options, allowed values and numbers,
 * in the declaration order (required options first), each with its declared message, and the
 * positional arguments.
 */
type ArgSpec = FlagSpec | TextSpec | ChoiceSpec | NumberSpec | PositionalSpec;

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

/** `--name <one of options>` (enum), or `--name a,b`, a comma-separated list of them (list; the default written the same way). */
interface ChoiceSpec {
  type: "enum" | "list";
  description: string;
  options: readonly string[];
  default?: string;
  /** The message for a value (an item of a list) that is none of the options. */
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

/**
 * An argument without a dash, taken in the declaration order: a required one always, an optional
 * one only when more are given than the required ones after it need (and its `pattern` matches),
 * a variadic one what those leave. A missing required one, a required one's (last) value that
 * does not match its `pattern`, and one too many are the command's `misuse`.
 */
interface PositionalSpec {
  type: "positional";
  description: string;
  required?: boolean;
  /** Takes the rest of the positional arguments. */
  variadic?: boolean;
  pattern?: RegExp;
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

/** The parsed command line: each declared argument's value. */
export type Parsed<T extends ArgSpecs> = { -readonly [K in keyof T]: ValueOf<T[K]> };

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
  /** The message when the positional arguments `given` do not fit the declared ones. */
  misuse?: (given: readonly string[]) => string;
  /** Writes the command's output to `context.io`; returns the exit status (0 when nothing is returned). */
  run(args: Parsed<T>, context: CommandContext): Promise<number | undefined>;
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

/**
 * The command as citty runs it (called as `path`, e.g. "bench run"): citty parses the options,
 * each a string but the flags, with its default (the declarations check the rest, so citty itself
 * never rejects a command line); `ran` gets the command's exit status.
 */
export function cittyRunner(command: Command, path: string, context: CommandContext, ran: (status: number) => void): CommandDef {
  const args: ArgsDef = {};
  const options: Record<string, "boolean" | "string"> = {};
  for (const [name, spec] of Object.entries(command.args)) {
    if (spec.type === "positional") continue;
    args[name] = spec.type === "boolean" ? { type: "boolean" } : { type: "string", ...(spec.default === undefined ? {} : { default: String(spec.default) }) };
    options[name] = spec.type === "boolean" ? "boolean" : "string";
  }
  const kinds: OptionKinds = { options, positionals: Object.values(command.args).some((spec) => spec.type === "positional") };
  return defineCommand({
    meta: { name: command.name },
    args,
    async run({ rawArgs, args: parsed }) {
      const problem = strictOptionsProblem(rawArgs, kinds);
      if (problem !== undefined) throw new RcmError("usage", problem);
      ran((await command.run(checked(command, path, parsed), context)) ?? 0);
    },
  });
}

/** The declared values of what citty parsed, or the first usage problem. */
function checked(command: Command, path: string, parsed: ParsedArgs): Parsed<ArgSpecs> {
  const specs = Object.entries(command.args);
  const missing = specs.find(([name, spec]) => spec.type === "string" && spec.required && parsed[name] === undefined);
  if (missing) throw new RcmError("usage", command.missing ?? `${path} needs --${missing[0]} <${(missing[1] as TextSpec).valueHint ?? "value"}>`);
  const values: Record<string, unknown> = {};
  for (const [name, spec] of specs) {
    const text = parsed[name] as string | boolean | undefined;
    // citty reads `--no-x` as x = false.
    if (spec.type === "boolean") values[name] = text === true || (name.startsWith("no-") && parsed[name.slice(3)] === false);
    else if (spec.type === "string") values[name] = text;
    else if (spec.type === "enum" || spec.type === "list") values[name] = choices(name, spec, text as string | undefined);
    else if (spec.type === "number") values[name] = text === undefined ? undefined : number(name, spec, text as string);
  }
  return { ...values, ...positionals(command, parsed._) } as Parsed<ArgSpecs>;
}

/** The positional arguments `given`, by name, as declared (see PositionalSpec). */
function positionals(command: Command, given: readonly string[]): Record<string, string | string[] | undefined> {
  const declared = Object.entries(command.args).flatMap(([name, spec]) => (spec.type === "positional" ? [{ name, ...spec }] : []));
  const misuse = () => new RcmError("usage", command.misuse?.(given) ?? `${command.name} takes no more arguments, got ${given.join(" ")}`);
  const rest = [...given];
  const values: Record<string, string | string[] | undefined> = {};
  for (const [index, spec] of declared.entries()) {
    const surplus = rest.length - declared.slice(index + 1).filter((later) => later.required).length;
    if (spec.variadic) values[spec.name] = rest.splice(0, Math.max(0, surplus));
    else if (spec.required || (surplus > 0 && (spec.pattern?.test(rest[0] as string) ?? true))) values[spec.name] = rest.shift();
    const last = [values[spec.name]].flat().at(-1);
    if (spec.required && (last === undefined || spec.pattern?.test(last) === false)) throw misuse();
  }
  if (rest.length > 0) throw misuse();
  return values;
}

/** The value of an enum, the items of a list; a value (an item) none of the options is a usage error. */
function choices(name: string, spec: ChoiceSpec, text: string | undefined): string | string[] | undefined {
  const items = spec.type === "list" ? text?.split(",").map((item) => item.trim()) : text;
  for (const item of [items ?? []].flat()) if (!spec.options.includes(item)) throw new RcmError("usage", spec.invalid(`--${name}`, spec.options, item));
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
    const fallback = spec.type === "boolean" || spec.type === "positional" || spec.default === undefined ? {} : { default: String(spec.default) };
    if (spec.type === "positional") args[name] = { type: "positional", description, required: spec.required === true };
    else if (spec.type === "boolean") args[name] = { type: "boolean", description };
    else if (spec.type === "number") args[name] = { type: "string", description, valueHint: spec.integer ? "n" : "number", ...fallback };
    else if (spec.type === "string")
      args[name] = { type: "string", description, valueHint: spec.valueHint ?? "value", required: spec.required === true, ...fallback };
    else if (spec.type === "enum") args[name] = { type: "enum", description, options: [...spec.options], ...fallback };
    else args[name] = { type: "string", description, valueHint: spec.options.join(","), ...fallback };
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
