import { z } from "zod";
import { RcmError } from "../../kit/errors/rcm-error.js";
import type { LabelledRequest, LabelledSession } from "../../lab/route-eval/labelled-sessions.js";
import { type IrcLine, nicksOf, parseIrcLog, stripAddressees } from "./irc-log.js";

/**
 * One annotated file of the IRC disentanglement corpus as a labelled session for route-eval:
 * the requests are the annotated messages in order (the context lines before them, which
 * carry no gold, are left out), each labelled with its gold conversation: a connected
 * component of the reply-to links, as the corpus's own tools define a conversation
 * (graph-to-cluster.py, dstc8-evaluation.py), reached through context lines too. Speakers and
 * times are left out and leading addressees stripped; system lines (joins, quits, renames)
 * and empty messages are no requests but stay in the gold file, so that figures on the
 * paper's message set can be had.
 */

export const IRC_REPO = "jkkummerfeld/irc-disentanglement";

/** How a request stands in its gold conversation, for per-kind figures (route-eval's `style`). */
const IRC_STYLES = ["opening", "from-context", "reply"] as const;
type IrcStyle = (typeof IRC_STYLES)[number];

/** The gold of one annotated line, request or not (system lines and empty messages are not) (the `<split>.gold.json` beside the sessions). */
const IrcGoldLineSchema = z
  .object({
    /** 0-based line of the log, as the annotation counts. */
    line: z.number().int().nonnegative(),
    conversation: z.string().min(1),
    kind: z.enum(["message", "action", "notice", "system"]),
    /** The request's 1-based position in the session (route-eval's `index`); none for a system line or an empty message. */
    request: z.number().int().positive().optional(),
  })
  .strict();

export const IrcGoldSessionSchema = z
  .object({
    id: z.string().min(1),
    /** The log's path in the corpus repository. */
    file: z.string().min(1),
    lines: z.array(IrcGoldLineSchema).min(1),
  })
  .strict();

export const IrcGoldSchema = z
  .object({
    repo: z.literal(IRC_REPO),
    commit: z.string().regex(/^[0-9a-f]{40}$/, "must be a full commit id"),
    split: z.string().min(1),
    sessions: z.array(IrcGoldSessionSchema),
  })
  .strict();

type IrcGoldLine = z.infer<typeof IrcGoldLineSchema>;
export type IrcGoldSession = z.infer<typeof IrcGoldSessionSchema>;

/** What one file gave, for the builder's counts. */
export interface IrcSessionCounts {
  contextLines: number;
  annotatedLines: number;
  requests: number;
  systemLines: number;
  actions: number;
  notices: number;
  /** Messages with no text after the speaker: no request, like system lines. */
  emptyMessages: number;
  /** Requests that lost one or more leading addressees. */
  addressesStripped: number;
  /** Requests that are nothing but an address, kept whole (an empty request is no request). */
  addressOnly: number;
  /** Gold conversations among the requests, and those of them that began in the context. */
  conversations: number;
  conversationsFromContext: number;
  /** Gold conversations of system lines only (no request). */
  systemOnlyConversations: number;
  /** Log lines after the annotated window (none in the corpus as published). */
  linesAfterWindow: number;
}

export interface IrcSessionBuild {
  session: LabelledSession;
  gold: IrcGoldSession;
  counts: IrcSessionCounts;
}

/** A reply-to link of the annotation: `later` answers (or, linked to itself, opens) a conversation with `earlier`. */
export interface ReplyLink {
  later: number;
  earlier: number;
}

function corpusError(file: string, line: number, field: string, problem: string): RcmError {
  return new RcmError("corpus", `${file}:${line}: ${field}: ${problem}`, { location: { file, line, field, problem } });
}

/** The `i j -` lines of an `.annotation.txt` file (blank lines and the tools' comment lines skipped). */
export function parseReplyLinks(file: string, text: string): ReplyLink[] {
  const links: ReplyLink[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || /^[#%/]/.test(line)) return;
    const match = /^(\d+)\s+(\d+)\s+-$/.exec(line);
    if (!match) throw corpusError(file, index + 1, "(line)", 'not a link "i j -"');
    const [a, b] = [Number(match[1]), Number(match[2])];
    links.push({ later: Math.max(a, b), earlier: Math.min(a, b) });
  });
  if (links.length === 0) throw corpusError(file, 0, "(file)", "no links");
  return links;
}

export interface AnnotatedWindow {
  /** First and last annotated line (every line between is annotated). */
  first: number;
  last: number;
  /** Gold conversation of each annotated line: `c<its first annotated line>`. */
  conversationOf: Map<number, string>;
  /** Conversations with a context line (before `first`) among their members. */
  fromContext: Set<string>;
}

/**
 * Conversations as connected components of the links (union-find over every linked line,
 * context lines included), kept to the annotated lines: from the first line that starts a
 * link (graph-to-cluster.py's cutoff; 1,000 in every file) to the last. Every line of the
 * window must start a link.
 */
export function conversationsOf(file: string, links: readonly ReplyLink[]): AnnotatedWindow {
  const first = Math.min(...links.map((link) => link.later));
  const last = Math.max(...links.map((link) => link.later));
  const annotated = new Set(links.map((link) => link.later));
  for (let line = first; line <= last; line++) {
    if (!annotated.has(line)) throw corpusError(file, 0, "(file)", `log line ${line} lies in the annotated window ${first}-${last} but starts no link`);
  }
  const parent = new Map<number, number>();
  const find = (node: number): number => {
    let root = node;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(node, root);
    return root;
  };
  for (const { later, earlier } of links) {
    if (!parent.has(later)) parent.set(later, later);
    if (!parent.has(earlier)) parent.set(earlier, earlier);
    const [a, b] = [find(later), find(earlier)];
    // The earlier root wins, so a root is its component's earliest line.
    if (a !== b) parent.set(Math.max(a, b), Math.min(a, b));
  }
  const members = new Map<number, number[]>();
  for (const node of [...parent.keys()].sort((a, b) => a - b)) {
    const root = find(node);
    const nodes = members.get(root);
    if (nodes) nodes.push(node);
    else members.set(root, [node]);
  }
  const conversationOf = new Map<number, string>();
  const fromContext = new Set<string>();
  for (const nodes of members.values()) {
    const inWindow = nodes.filter((node) => node >= first);
    const label = `c${inWindow[0]}`;
    for (const node of inWindow) conversationOf.set(node, label);
    if (nodes.some((node) => node < first)) fromContext.add(label);
  }
  return { first, last, conversationOf, fromContext };
}

/**
 * The labelled session and the gold lines of one annotated file. `file` is the log's path in
 * the corpus (for errors and the gold file), `lineURL` the address of one of its lines
 * (0-based), kept as each request's `source`.
 */
export function buildIrcSession(options: {
  id: string;
  file: string;
  log: string;
  annotation: string;
  annotationFile: string;
  description: (counts: IrcSessionCounts) => string;
  fileURL: string;
  lineURL: (line: number) => string;
}): IrcSessionBuild {
  const lines = parseIrcLog(options.file, options.log);
  const window = conversationsOf(options.annotationFile, parseReplyLinks(options.annotationFile, options.annotation));
  if (window.last >= lines.length) {
    throw corpusError(options.annotationFile, 0, "(file)", `links reach line ${window.last} but ${options.file} has ${lines.length} lines`);
  }
  const nicks = nicksOf(lines);
  const requests: LabelledRequest[] = [];
  const goldLines: IrcGoldLine[] = [];
  const seen = new Set<string>();
  const counts: IrcSessionCounts = {
    contextLines: window.first,
    annotatedLines: window.last - window.first + 1,
    requests: 0,
    systemLines: 0,
    actions: 0,
    notices: 0,
    emptyMessages: 0,
    addressesStripped: 0,
    addressOnly: 0,
    conversations: 0,
    conversationsFromContext: 0,
    systemOnlyConversations: 0,
    linesAfterWindow: lines.length - window.last - 1,
  };
  for (const line of lines.slice(window.first, window.last + 1) as IrcLine[]) {
    const conversation = window.conversationOf.get(line.index) as string;
    if (line.kind === "system" || line.text === "") {
      if (line.kind === "system") counts.systemLines += 1;
      else counts.emptyMessages += 1;
      goldLines.push({ line: line.index, conversation, kind: line.kind });
      continue;
    }
    if (line.kind === "action") counts.actions += 1;
    if (line.kind === "notice") counts.notices += 1;
    // An action reads "nick waves": its nick is its speaker, left out like the others.
    const addressed = stripAddressees(line.text, nicks);
    if (addressed.stripped > 0) counts.addressesStripped += 1;
    if (addressed.onlyAddress) counts.addressOnly += 1;
    const style: IrcStyle = seen.has(conversation) ? "reply" : window.fromContext.has(conversation) ? "from-context" : "opening";
    if (!seen.has(conversation)) {
      counts.conversations += 1;
      if (style === "from-context") counts.conversationsFromContext += 1;
    }
    seen.add(conversation);
    requests.push({ text: addressed.text, task: conversation, style, source: options.lineURL(line.index) });
    goldLines.push({ line: line.index, conversation, kind: line.kind, request: requests.length });
  }
  counts.requests = requests.length;
  counts.systemOnlyConversations = new Set(goldLines.map((line) => line.conversation).filter((label) => !seen.has(label))).size;
  if (requests.length === 0) throw corpusError(options.file, 0, "(file)", "no annotated message that is not a system line");
  return {
    session: { id: options.id, description: options.description(counts), repo: IRC_REPO, shape: "everyday", sources: [options.fileURL], requests },
    gold: { id: options.id, file: options.file, lines: goldLines },
    counts,
  };
}
