import type { SyntheticTask } from "./draw-task.js";
import { pastedLog } from "./pasted-log.js";
import type { SeededRandom } from "./seeded-random.js";
import type { GeneratedStyle } from "./styles.js";

/** What a request's text is written from. */
export interface RequestContext {
  random: SeededRandom;
  task: SyntheticTask;
  /** The task's letter in the session, A for the first ("Task C: ..."). */
  letter: string;
  /** The file an `exact-file` request names. */
  file: string;
  /** The task's key nouns its earlier requests said: a remark can only lean on words the reader has seen. */
  said: ReadonlySet<string>;
}

type Template = (c: Pieces) => string;

/** The words a template is filled with, drawn fresh for each request. */
interface Pieces {
  component: string;
  file: string;
  symbol: string;
  key: string;
  otherKey: string;
  action: string;
  symptom: string;
  letter: string;
  /** The two distinctive words a reviewer note repeats. */
  pair: [string, string];
}

const CODE_ACTIONS: ReadonlyArray<(key: string, symbol: string) => string> = [
  (k) => `handle a missing ${k} too`,
  (k) => `reject an empty ${k} with a clear error message`,
  (k) => `trim the ${k} before comparing it`,
  (k) => `return a default value instead of crashing when the ${k} is null`,
  (k) => `log a warning when the ${k} looks wrong`,
  (k) => `keep the ${k} order stable between runs`,
  (k) => `cap the ${k} at a sane maximum and say so in the docstring`,
  (k) => `make the ${k} check case-insensitive`,
  (k) => `cover a zero ${k} in the tests`,
  (k) => `give the ${k} argument a clearer name`,
  (k) => `read the ${k} from settings instead of hardcoding it`,
  (k) => `return an error value rather than throwing when the ${k} is invalid`,
  (k, s) => `make ${s} accept an optional ${k}`,
  (k, s) => `split ${s} so the ${k} handling is its own function`,
];

const DOCS_ACTIONS: ReadonlyArray<(key: string, symbol: string) => string> = [
  (k) => `add a short section about the ${k}`,
  (k) => `fix the broken link in the ${k} part`,
  (k) => `list the supported platforms next to the ${k} notes`,
  (k) => `reword the ${k} paragraph, it's confusing`,
  (k) => `add an example for the ${k}`,
  (k) => `drop the outdated note about the ${k}`,
  (k, s) => `move the ${k} bit under "${s}"`,
  (k) => `explain the ${k} for first-time readers`,
];

const CODE_SYMPTOMS: ReadonlyArray<(key: string) => string> = [
  (k) => `drops the ${k} when the input has trailing spaces`,
  (k) => `throws on an empty ${k}`,
  (k) => `returns a stale ${k} after the second call`,
  (k) => `ignores the ${k} completely`,
  (k) => `counts the ${k} twice in some cases`,
  (k) => `hangs when the ${k} is very large`,
  (k) => `gets the ${k} wrong for non-ASCII input`,
  (k) => `silently swallows errors about the ${k}`,
];

const DOCS_SYMPTOMS: ReadonlyArray<(key: string) => string> = [
  (k) => `still describes the old ${k} flow`,
  (k) => `says nothing about the ${k}`,
  (k) => `links to a dead page in the ${k} part`,
  (k) => `contradicts itself on the ${k}`,
  (k) => `has a wrong example for the ${k}`,
];

const CUES: ReadonlyArray<(letter: string) => string> = [
  () => "New task:",
  () => "new thing:",
  () => "Separately,",
  () => "another thing:",
  () => "unrelated:",
  (letter) => `Task ${letter}:`,
  () => "btw separate issue -",
  () => "Different topic:",
];

const TEMPLATES: Record<Exclude<GeneratedStyle, "issue-open" | "pasted-log" | "shared-rule">, readonly Template[]> = {
  "chat-open": [
    (c) => `can u make the ${c.component} ${c.action}`,
    (c) => `the ${c.component} ${c.symptom}, can you fix`,
    (c) => `${c.file} ${c.symptom} - pls look`,
    (c) => `hey, in ${c.file} could you ${c.action}?`,
    (c) => `quick one: ${c.component} ${c.symptom}`,
    (c) => `need the ${c.component} to ${c.action}, it's in ${c.file}`,
  ],
  "explicit-new": [
    (c) => `the ${c.component} ${c.symptom}.`,
    (c) => `in ${c.file}, ${c.action}.`,
    (c) => `the ${c.component} should ${c.action}.`,
    (c) => `could you look at the ${c.component}? It ${c.symptom}.`,
    (c) => `${c.file} ${c.symptom}, please fix.`,
  ],
  "uncued-new": [
    (c) => `the ${c.component} ${c.symptom}, look into it`,
    (c) => `${c.key} in the ${c.component} is off again, can you check`,
    (c) => `users say the ${c.component} ${c.symptom}`,
    (c) => `can you make the ${c.component} ${c.action}`,
    (c) => `the ${c.component}: ${c.action} pls`,
    (c) => `got a report that the ${c.component} ${c.symptom}. take a look?`,
  ],
  "exact-file": [
    (c) => `In ${c.file}, ${c.action}.`,
    (c) => `${c.file}: ${c.action}`,
    (c) => `open ${c.file} and ${c.action}`,
    (c) => `Can you ${c.action} in ${c.file}?`,
    (c) => `${c.file} - ${c.action}, please`,
    (c) => `also in ${c.file}: ${c.action}`,
  ],
  "task-nouns": [
    (c) => `For the ${c.component}, ${c.action}.`,
    (c) => `${c.component}: ${c.action}`,
    (c) => `on the ${c.component} - ${c.action}`,
    (c) => `The ${c.component} should ${c.action}.`,
    (c) => `One more for the ${c.component}: ${c.action}.`,
    (c) => `about the ${c.key} and the ${c.otherKey}: ${c.action}`,
  ],
  "reviewer-note": [
    (c) => `reviewer: the ${c.pair[0]}'s ${c.pair[1]} shouldn't leak memory when the caller gives up early`,
    (c) => `Review comment on the ${c.pair[0]} ${c.pair[1]} bit: three levels of nesting, can we flatten it with guard clauses?`,
    (c) => `From code review - ${c.pair[1]} handling in the ${c.pair[0]} code swallows exceptions; surface them instead.`,
    (c) => `Reviewer asks why the ${c.pair[0]} recomputes the ${c.pair[1]} on every call. Memoize it or leave a comment explaining.`,
    (c) => `PR feedback: naming around ${c.pair[0]} vs ${c.pair[1]} is muddled, pick one term and use it everywhere`,
    (c) => `nit from review: that ${c.pair[0]} ${c.pair[1]} constant is magic, pull it out and name it`,
    (c) => `second reviewer says the ${c.pair[1]} branch in the ${c.pair[0]} is unreachable now. delete it if true`,
  ],
  "terse-nudge": [
    () => "tests pls",
    () => "ok ship it",
    () => "and the edge case?",
    () => "lgtm, commit",
    () => "hmm still failing",
    () => "again pls",
    () => "nice. push it",
    () => "what about null?",
  ],
  "bare-continuation": [
    () => "now add a test for that",
    () => "run the suite again and fix what breaks",
    () => "ok, also update the docstring for that",
    () => "good, clean up the naming a bit before we move on",
    () => "now make the same fix on the error path",
    () => "that works. refactor it so it's easier to read",
    () => "revert the last bit and try a smaller change",
  ],
  "switch-back": [
    (c) => `back to the ${c.component}: ${c.action}`,
    (c) => `ok returning to the ${c.component}: ${c.action}`,
    (c) => `Going back to the ${c.component} - ${c.action}.`,
    (c) => `re the ${c.component} again: ${c.action}`,
    (c) => `switching back to the ${c.component}. ${c.action}.`,
    (c) => `Let's get back to the ${c.component}; ${c.action}`,
  ],
};

const DOCS_NUDGES = ["typos?", "ok ship it", "lgtm", "shorter pls", "and the intro?"];
const DOCS_CONTINUATIONS = [
  "now proofread the whole page once",
  "fix the sub-title levels while you're there",
  "preview it and check the links still work",
  "good, make the wording a bit friendlier",
];

const SHARED_RULES = [
  "from now on don't add dependencies",
  "for all of these keep the public API stable",
  "rule for everything today: small commits",
  "General rule: format the code before every commit",
  "for every task here, no new TODO comments please",
  "Across the board, keep lines under 100 chars",
  "all of these: write commit messages in the imperative mood",
  "from here on, always run the full test suite before saying done",
  "for everything today: no force pushes",
  "one rule for all of it: don't touch generated files",
  "everywhere: prefer early returns over nested ifs",
  "Heads up for all tasks - target Node 20 and Python 3.11, nothing newer",
];

const CLOSINGS = [
  "Seen on main and on the last tag.",
  "Not urgent, but it confuses people.",
  "This breaks the nightly job for two customers.",
  "Happy to pair on it if useful.",
];

/** The text of a request in the given style, for the context's task. */
export function writeRequest(style: GeneratedStyle, context: RequestContext): string {
  const { random, task } = context;
  if (style === "shared-rule") return random.pick(SHARED_RULES);
  if (style === "pasted-log") {
    const log = pastedLog(random, task);
    const comment = random.pick(["", "this is failing now:", "ci is red", "got this after the change", "hmm", "same error as before?\n\n"]);
    return comment === "" ? log : comment.endsWith("\n") ? comment + log : `${comment}\n${log}`;
  }
  const pieces = piecesFor(context);
  if (style === "issue-open") return issue(random, task, pieces);
  if (task.kind === "docs" && style === "terse-nudge") return vary(random, random.pick(DOCS_NUDGES));
  if (task.kind === "docs" && style === "bare-continuation") return vary(random, random.pick(DOCS_CONTINUATIONS));
  let text = random.pick(TEMPLATES[style])(pieces);
  if (style === "explicit-new") text = `${random.pick(CUES)(context.letter)} ${text}`;
  if (["chat-open", "uncued-new"].includes(style)) text = text.toLowerCase() === text ? text : lowerWords(text, task);
  text = vary(random, text);
  if (["chat-open", "uncued-new", "task-nouns", "switch-back", "terse-nudge", "bare-continuation", "explicit-new"].includes(style) && random.chance(0.12)) {
    text = typo(random, text, [...task.keys, task.qualifier, task.head]);
  }
  return text;
}

function piecesFor({ random, task, letter, file, said }: RequestContext): Pieces {
  const [key, otherKey] = random.sample(task.keys, 2) as [string, string];
  const seen = task.keys.filter((candidate) => said.has(candidate));
  const symbol = random.pick(task.symbols);
  const actions = task.kind === "docs" ? DOCS_ACTIONS : CODE_ACTIONS;
  const symptoms = task.kind === "docs" ? DOCS_SYMPTOMS : CODE_SYMPTOMS;
  const componentWord = random.pick([task.qualifier, task.head]);
  return {
    component: task.component,
    file,
    symbol,
    key,
    otherKey,
    action: random.pick(actions)(key, symbol),
    symptom: random.pick(symptoms)(key),
    letter,
    pair: reviewPair(random, componentWord, task, seen),
  };
}

/**
 * The two words a reviewer note repeats, both said before in the task: its component word
 * and a key noun it used, two key nouns it used, or, before any was used, both component words.
 */
function reviewPair(random: SeededRandom, componentWord: string, task: SyntheticTask, seen: readonly string[]): [string, string] {
  if (seen.length >= 2 && random.chance(0.25)) return random.sample(seen, 2) as [string, string];
  if (seen.length >= 1) return [componentWord, random.pick(seen)];
  return [task.qualifier, task.head];
}

/** A 3-6 sentence issue report naming the task's file or symbol, sometimes with a code block. */
function issue(random: SeededRandom, task: SyntheticTask, c: Pieces): string {
  const docs = task.kind === "docs";
  const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const opening = docs
    ? random.pick([`${c.file} ${c.symptom}.`, `The ${c.component} page (${c.file}) ${c.symptom}.`])
    : random.pick([
        `\`${c.symbol}\` in ${c.file} ${c.symptom}.`,
        `The ${c.component} (${c.file}) ${c.symptom}.`,
        `Since the last release, \`${c.symbol}\` ${c.symptom}.`,
      ]);
  const detail = docs
    ? random.pick([`New people following it get stuck right at the ${c.otherKey} part.`, `The "${c.symbol}" section is where it goes wrong.`])
    : random.pick([
        `Steps to reproduce: call it with an input whose ${c.otherKey} is empty and compare with the previous version.`,
        "It only shows up with real customer data, not with the fixtures we have.",
        `I traced it as far as ${c.file}; the rest of the call chain looks fine.`,
        "It started after the refactor two weeks ago.",
      ]);
  const expectation = docs
    ? "Expected: the page matches what the product does today."
    : random.pick([
        `Expected: the ${c.key} comes through unchanged. Actual: it is empty and nothing is logged.`,
        "I'd expect a clear error value here instead of a silent wrong result.",
      ]);
  const sentences = [opening, detail, expectation];
  if (random.chance(0.6)) sentences.push(random.pick(CLOSINGS));
  let body = sentences.join(" ");
  if (!docs && random.chance(0.4)) {
    const comment = ["python", "ruby"].includes(task.language) ? "#" : "//";
    body += `\n\n\`\`\`\n${callOf(task.language, c.symbol, c.key)}\n${comment} expected a value, got an error about the ${c.key}\n\`\`\``;
  }
  return random.chance(0.5) ? `${capital(c.component)} ${c.symptom}\n\n${body}` : body;
}

function callOf(language: SyntheticTask["language"], symbol: string, key: string): string {
  const type = /^[A-Z]/.test(symbol);
  switch (language) {
    case "python":
      return `${symbol}(${key}=None)`;
    case "go":
      return `${symbol}(ctx, ${key})`;
    case "typescript":
      return type ? `new ${symbol}({ ${key}: undefined })` : `${symbol}({ ${key}: undefined })`;
    case "rust":
      return type ? `${symbol}::new(&${key})?` : `${symbol}(&${key})?`;
    case "java":
      return type ? `new ${symbol}(null)` : `service.${symbol}(null)`;
    case "ruby":
      return type ? `${symbol}.new(${key}: nil)` : `${symbol}(${key}: nil)`;
    case "markdown":
      return symbol;
  }
}

/** Lower-cases a chat text's own words, leaving paths and symbols as they are. */
function lowerWords(text: string, task: SyntheticTask): string {
  const keep = new Set([...task.files, ...task.symbols]);
  return text
    .split(" ")
    .map((word) => ([...keep].some((kept) => word.includes(kept)) ? word : word.toLowerCase()))
    .join(" ");
}

/** Varies the case of the first letter and the final punctuation. */
function vary(random: SeededRandom, text: string): string {
  let result = text;
  if (/^[A-Za-z]+[ ,:]/.test(result)) {
    const roll = random.next();
    if (roll < 0.3) result = result.charAt(0).toUpperCase() + result.slice(1);
    else if (roll < 0.5) result = result.charAt(0).toLowerCase() + result.slice(1);
  }
  const roll = random.next();
  if (roll < 0.2 && result.endsWith(".")) result = result.slice(0, -1);
  else if (roll < 0.3 && /[a-z]$/.test(result)) result += ".";
  else if (roll < 0.35 && /[a-z]$/.test(result)) result += "!";
  return result;
}

/** Swaps two inner letters of one plain word that is not one of the task's own words. */
function typo(random: SeededRandom, text: string, protect: readonly string[]): string {
  const words = text.split(" ");
  const candidates = words
    .map((word, index) => ({ word, index }))
    .filter(({ word }) => /^[a-z]{5,}$/.test(word) && !protect.some((kept) => word.includes(kept)));
  if (candidates.length === 0) return text;
  const { word, index } = random.pick(candidates);
  const at = random.int(1, word.length - 3);
  words[index] = word.slice(0, at) + word.charAt(at + 1) + word.charAt(at) + word.slice(at + 2);
  return words.join(" ");
}
