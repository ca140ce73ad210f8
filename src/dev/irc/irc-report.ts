import { RcmError } from "../../kit/errors/rcm-error.js";
import { type ConversationLabels, conversationOverlap, eachAlone, linkToPrevious, type OverlapFigures } from "../../lab/route-eval/conversation-overlap.js";
import type { EvaluatedRequest } from "../../lab/route-eval/evaluate-routing.js";
import type { LabelledSession } from "../../lab/route-eval/labelled-sessions.js";
import type { IrcGoldSession } from "./irc-sessions.js";

/**
 * The router's best guesses (each request's router task) scored as a disentanglement of an IRC
 * split, next to the baselines, per annotated file and pooled, and the router's own figures.
 * Two message sets: the requests (what the router saw), and the paper's (every annotated
 * line: system lines and empty messages added back, each predicted alone by the router, as any
 * system that reads the `===` lines would), on which the published tables were computed.
 */

/** A router's own figures over some requests (shares of them, 0-1). */
interface RouterFigures {
  requests: number;
  accuracy: number;
  /** Below the threshold: the full history kept. */
  fallback: number;
  /** Confident and right, among the requests after each session's first (which has nothing to choose). */
  narrowedRight: number;
  harmful: number;
  merge: number;
}

interface DisentanglementFigures {
  /** The router's tasks as conversations. */
  router: OverlapFigures;
  /** Every request in the previous one's conversation: one conversation a session. */
  previous: OverlapFigures;
  /** Every request its own conversation. */
  eachAlone: OverlapFigures;
}

interface PaperSetFigures {
  router: OverlapFigures;
  /** The paper's Previous: system lines linked to the message before them (section 5). */
  previousLinked: OverlapFigures;
  /** The supplement's wording: system lines left unlinked, each alone. */
  previousSystemAlone: OverlapFigures;
  eachAlone: OverlapFigures;
}

interface IrcSessionReport {
  id: string;
  file: string;
  routerTasks: number;
  requests: DisentanglementFigures;
  routing: RouterFigures;
}

export interface IrcSplitReport {
  split: string;
  threshold: number;
  sessions: IrcSessionReport[];
  pooled: { requests: DisentanglementFigures; paperSet: PaperSetFigures; routing: RouterFigures; byStyle: (RouterFigures & { style: string })[] };
}

/** Checks that the gold file and the sessions agree, request by request; an error names the gold file and the session. */
export function checkGoldAgrees(goldFile: string, sessions: readonly LabelledSession[], gold: readonly IrcGoldSession[]): void {
  const goldOf = new Map(gold.map((entry) => [entry.id, entry]));
  for (const session of sessions) {
    const entry = goldOf.get(session.id);
    const fail = (problem: string) =>
      new RcmError("corpus", `${goldFile}: session ${session.id}: ${problem}`, { location: { file: goldFile, line: 0, field: "sessions", problem } });
    if (!entry) throw fail("not in the gold file");
    const requests = entry.lines.filter((line) => line.request !== undefined);
    if (requests.length !== session.requests.length) throw fail(`${requests.length} requests in the gold, ${session.requests.length} in the session`);
    requests.forEach((line, position) => {
      if (line.request !== position + 1) throw fail(`line ${line.line} is request ${line.request}, expected ${position + 1}`);
      if (session.requests[position]?.task !== line.conversation)
        throw fail(`request ${position + 1}: gold ${line.conversation}, session ${session.requests[position]?.task}`);
    });
  }
}

/** The split's report from route-eval's evaluated requests (in session order) and the gold of every annotated line. */
export function ircSplitReport(options: {
  split: string;
  threshold: number;
  gold: readonly IrcGoldSession[];
  evaluated: readonly EvaluatedRequest[];
}): IrcSplitReport {
  const bySession = new Map<string, EvaluatedRequest[]>();
  for (const request of options.evaluated) {
    const list = bySession.get(request.session);
    if (list) list.push(request);
    else bySession.set(request.session, [request]);
  }
  const streams = options.gold.map((gold) => {
    const requests = (bySession.get(gold.id) ?? []).sort((a, b) => a.index - b.index);
    const withRequest = gold.lines.filter((line) => line.request !== undefined);
    if (requests.length !== withRequest.length) throw new RangeError(`${gold.id}: ${requests.length} evaluated requests, ${withRequest.length} in the gold`);
    const goldLabels = requests.map((request) => request.gold);
    // The paper's set: every annotated line; a line with no request is predicted alone.
    const taskOfRequest = new Map(requests.map((request) => [request.index, request.task]));
    const paperGold = gold.lines.map((line) => line.conversation);
    const paperRouter = gold.lines.map((line) => (line.request === undefined ? `line-${line.line}` : `task-${taskOfRequest.get(line.request)}`));
    const system = gold.lines.map((line) => line.kind === "system");
    return {
      gold,
      requests,
      onRequests: {
        router: { gold: goldLabels, predicted: requests.map((request) => request.task) },
        previous: {
          gold: goldLabels,
          predicted: linkToPrevious(
            goldLabels.map(() => false),
            "linked",
          ),
        },
        eachAlone: { gold: goldLabels, predicted: eachAlone(goldLabels.length) },
      },
      paperSet: {
        router: { gold: paperGold, predicted: paperRouter },
        previousLinked: { gold: paperGold, predicted: linkToPrevious(system, "linked") },
        previousSystemAlone: { gold: paperGold, predicted: linkToPrevious(system, "alone") },
        eachAlone: { gold: paperGold, predicted: eachAlone(paperGold.length) },
      },
    };
  });
  type OnRequests = (typeof streams)[number]["onRequests"];
  const requestFigures = (chosen: readonly OnRequests[]): DisentanglementFigures => ({
    router: conversationOverlap(chosen.map((stream) => stream.router)),
    previous: conversationOverlap(chosen.map((stream) => stream.previous)),
    eachAlone: conversationOverlap(chosen.map((stream) => stream.eachAlone)),
  });
  const pooledPaper = (pick: (stream: (typeof streams)[number]) => ConversationLabels) => conversationOverlap(streams.map(pick));
  const all = streams.flatMap((stream) => stream.requests);
  const styles = [...new Set(all.flatMap((request) => (request.style === undefined ? [] : [request.style])))];
  return {
    split: options.split,
    threshold: options.threshold,
    sessions: streams.map((stream) => ({
      id: stream.gold.id,
      file: stream.gold.file,
      routerTasks: new Set(stream.requests.map((request) => request.task)).size,
      requests: requestFigures([stream.onRequests]),
      routing: routerFigures(stream.requests, options.threshold),
    })),
    pooled: {
      requests: requestFigures(streams.map((stream) => stream.onRequests)),
      paperSet: {
        router: pooledPaper((stream) => stream.paperSet.router),
        previousLinked: pooledPaper((stream) => stream.paperSet.previousLinked),
        previousSystemAlone: pooledPaper((stream) => stream.paperSet.previousSystemAlone),
        eachAlone: pooledPaper((stream) => stream.paperSet.eachAlone),
      },
      routing: routerFigures(all, options.threshold),
      byStyle: styles.map((style) => ({
        style,
        ...routerFigures(
          all.filter((request) => request.style === style),
          options.threshold,
        ),
      })),
    },
  };
}

function routerFigures(requests: readonly EvaluatedRequest[], threshold: number): RouterFigures {
  const share = (count: number, of: number) => (of === 0 ? 0 : count / of);
  const n = requests.length;
  const later = requests.filter((request) => request.index > 1);
  return {
    requests: n,
    accuracy: share(requests.filter((request) => request.correct).length, n),
    fallback: share(requests.filter((request) => request.confidence < threshold).length, n),
    narrowedRight: share(later.filter((request) => request.confidence >= threshold && request.correct).length, later.length),
    harmful: share(requests.filter((request) => request.mistake === "harmful").length, n),
    merge: share(requests.filter((request) => request.mistake === "merge").length, n),
  };
}

const one = (value: number) => value.toFixed(1);
const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
const triple = (figures: OverlapFigures) => `${one(figures.scaledVI)} | ${one(figures.oneToOne)} | ${one(figures.exact.f1)}`;
const full = (figures: OverlapFigures) =>
  `${one(figures.scaledVI)} | ${one(figures.oneToOne)} | ${one(figures.exact.precision)} | ${one(figures.exact.recall)} | ${one(figures.exact.f1)}`;

/** The split's report as markdown tables (no timings: the same data and build print the same text). */
export function renderIrcSplitReport(report: IrcSplitReport, options: { perSession: boolean }): string {
  const { pooled } = report;
  const lines = [
    `## ${report.split}`,
    "",
    `${report.sessions.length} sessions, ${pooled.routing.requests} requests, ${pooled.requests.router.goldConversations} gold conversations; lexical router at threshold ${report.threshold}.`,
    "",
    "Disentanglement, pooled as the paper pools files (1-1: one-to-one overlap; VI: 100 * (1 - VI / log2 n); P/R/F1: exact conversations of 2+ messages):",
    "",
    "| message set | system | conversations | VI | 1-1 | P | R | F1 |",
    "|---|---|---|---|---|---|---|---|",
    `| requests | router (its tasks) | ${pooled.requests.router.predictedConversations} | ${full(pooled.requests.router)} |`,
    `| requests | previous (one conversation a session) | ${pooled.requests.previous.predictedConversations} | ${full(pooled.requests.previous)} |`,
    `| requests | each alone | ${pooled.requests.eachAlone.predictedConversations} | ${full(pooled.requests.eachAlone)} |`,
    `| paper's (all ${pooled.paperSet.router.messages} annotated lines) | router, system lines alone | ${pooled.paperSet.router.predictedConversations} | ${full(pooled.paperSet.router)} |`,
    `| paper's | Previous, system lines linked | ${pooled.paperSet.previousLinked.predictedConversations} | ${full(pooled.paperSet.previousLinked)} |`,
    `| paper's | Previous, system lines alone | ${pooled.paperSet.previousSystemAlone.predictedConversations} | ${full(pooled.paperSet.previousSystemAlone)} |`,
    `| paper's | each alone | ${pooled.paperSet.eachAlone.predictedConversations} | ${full(pooled.paperSet.eachAlone)} |`,
    "",
    "Routing (narrowed right: confident and right, of the requests after each session's first):",
    "",
    "| requests | n | accuracy | fallback | narrowed right | harmful | merge |",
    "|---|---|---|---|---|---|---|",
    routingRow("all", pooled.routing),
    ...pooled.byStyle.map((figures) => routingRow(figures.style, figures)),
  ];
  if (options.perSession) {
    lines.push(
      "",
      "Per annotated file (on the requests):",
      "",
      "| session | n | gold conv. | router tasks | router VI | 1-1 | F1 | previous VI | 1-1 | F1 | fallback | narrowed right | harmful | merge |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
      ...report.sessions.map(
        (session) =>
          `| ${session.id} | ${session.routing.requests} | ${session.requests.router.goldConversations} | ${session.routerTasks} | ${triple(session.requests.router)} | ` +
          `${triple(session.requests.previous)} | ${percent(session.routing.fallback)} | ${percent(session.routing.narrowedRight)} | ` +
          `${percent(session.routing.harmful)} | ${percent(session.routing.merge)} |`,
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}

function routingRow(name: string, figures: RouterFigures): string {
  return `| ${name} | ${figures.requests} | ${percent(figures.accuracy)} | ${percent(figures.fallback)} | ${percent(figures.narrowedRight)} | ${percent(figures.harmful)} | ${percent(figures.merge)} |`;
}

/** One line a split, for comparing splits. */
export function renderIrcSummary(reports: readonly IrcSplitReport[]): string {
  return [
    "| split | sessions | requests | gold conv. | router tasks | router VI | 1-1 | F1 | previous VI | 1-1 | F1 | fallback | narrowed right | harmful | merge |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...reports.map((report) => {
      const { requests, routing } = report.pooled;
      return (
        `| ${report.split} | ${report.sessions.length} | ${routing.requests} | ${requests.router.goldConversations} | ${requests.router.predictedConversations} | ` +
        `${triple(requests.router)} | ${triple(requests.previous)} | ${percent(routing.fallback)} | ${percent(routing.narrowedRight)} | ` +
        `${percent(routing.harmful)} | ${percent(routing.merge)} |`
      );
    }),
  ].join("\n");
}
