import { CHARS_PER_TOKEN } from "../../../plugin/core/memory/estimate-tokens.js";
import type { CacheTokens, ResultLine } from "../run-dir/result-line.js";
import { CONDITIONS } from "../suite/schema.js";
import {
  CONTEXT_FAILURE_NAMES,
  carriedSummary,
  carriedText,
  contextFailure,
  costSummary,
  fidelitySummary,
  gapPoints,
  hasResumed,
  linesOf,
  modesOf,
  percent,
  recoveredShare,
  resolvedRate,
} from "./summaries.js";

/** A report table, rendered to Markdown for report.md and to HTML for report.html. */
export interface ReportTable {
  id: string;
  heading: string;
  note?: string;
  header: string[];
  rows: string[][];
}

/** What near and far mean, as `isNear` (suite/make-sessions.ts) decides when the sessions are made. */
const LOCALITY_NOTE =
  "near: an interrupting task's reference patch changes source files in a directory where the focus task's patch does; far: none of them does.";

/** The report's tables in order; tables whose data no line carries are left out. */
export function reportTables(results: readonly ResultLine[], options: { cacheReadPrice: number }): ReportTable[] {
  return [
    resolutionTable(results),
    resumedTable(results),
    costTable(results),
    fidelityTable(results),
    cacheCostTable(results, options.cacheReadPrice),
    failuresTable(results),
    sessionsTable(results),
  ].filter((table): table is ReportTable => table !== undefined);
}

function resolutionTable(results: readonly ResultLine[]): ReportTable {
  // The resumed columns come last, and only in a run that has the condition: other reports stay as they were.
  const resumed = hasResumed(results);
  const rows = modesOf(results).map((mode) => {
    const gap = (locality?: ResultLine["locality"]) => gapPoints(results, mode, locality)?.toFixed(1) ?? "-";
    const recovered = mode === "native" ? "-" : percent(recoveredShare(results, mode), 0);
    const row = [mode, share(linesOf(results, mode, "uninterrupted")), share(linesOf(results, mode, "switched")), gap(), gap("near"), gap("far"), recovered];
    return resumed ? [...row, ...resumedCells(results, mode)] : row;
  });
  return {
    id: "resolution",
    heading: "Resolution",
    note: `${LOCALITY_NOTE} gap: uninterrupted minus switched, in points. Recovers: how much of native's switched gap the mode closes (its switched rate climbing from native's switched toward native's uninterrupted); - when native has no gap.${resumed ? ` ${RESUMED_NOTE}` : ""}`,
    header: ["mode", "uninterrupted", "switched", "gap (pts)", "near gap", "far gap", "recovers native's gap", ...(resumed ? RESUMED_HEADER : [])],
    rows,
  };
}

/** What the resumed columns mean, said under both resolution tables. */
const RESUMED_NOTE =
  "resumed: the focus's first stages in one OpenCode session, the interruptions in a second, its last stage (the same request, its checkout's path first) and finalize in a third of the same server; carried: the focus's earlier requirements that reached the third session's first model call.";

const RESUMED_HEADER = ["resumed", "resumed: requirements carried"];

/** A mode's resumed resolution and the earlier requirements its returns carried. */
function resumedCells(results: readonly ResultLine[], mode: ResultLine["mode"]): string[] {
  return [share(linesOf(results, mode, "resumed")), carriedText(carriedSummary(linesOf(results, mode, "resumed")))];
}

/**
 * Each resumed session's return: which of the focus's earlier requirements reached the first
 * model call of its third OpenCode session, which did not, and how that was seen.
 */
function resumedTable(results: readonly ResultLine[]): ReportTable | undefined {
  if (!hasResumed(results)) return undefined;
  const order = modesOf(results);
  const rows = results
    .filter((line) => line.condition === "resumed")
    .sort((a, b) => a.session_id.localeCompare(b.session_id) || order.indexOf(a.mode) - order.indexOf(b.mode))
    .map((line) => {
      const resumption = line.resumption;
      const list = (ids: readonly string[] | undefined) => (ids === undefined ? "-" : ids.length === 0 ? "none" : ids.join(", "));
      return [
        line.session_id,
        line.mode,
        line.resolved ? "yes" : "no",
        list(resumption?.requirements),
        list(resumption?.carried),
        list(resumption?.missed),
        resumption?.seen_by ?? "-",
      ];
    });
  return {
    id: "resumed",
    heading: "Resumed: what reached the focus's return in a new session",
    note: `${RESUMED_NOTE} rule phrase: the faithful agent saw the stage's rule phrase in the call's words (what decides its files); request or cited record: the stage's request word for word, or a memory-record constraint citing it, in the recorded call. native starts the third session with nothing; memory and full carry what the plug-in resumes of the earlier session's task.`,
    header: ["session", "mode", "resolved", "earlier requirements", "carried", "missed", "seen by"],
    rows,
  };
}

/**
 * The offline benchmark's headline, one row per mode: resolution uninterrupted and switched,
 * the gap, how much of native's gap the mode recovers, and why switched sessions failed.
 */
export function gapTable(results: readonly ResultLine[]): ReportTable {
  const resumed = hasResumed(results);
  const rows = modesOf(results).map((mode) => {
    const switched = linesOf(results, mode, "switched");
    const failed = switched.filter((line) => !line.resolved);
    const because = (why: "lost" | "leaked") => String(failed.filter((line) => contextFailure(line) === why).length);
    return [
      mode,
      share(linesOf(results, mode, "uninterrupted")),
      share(switched),
      gapPoints(results, mode)?.toFixed(1) ?? "-",
      mode === "native" ? "-" : percent(recoveredShare(results, mode), 0),
      because("lost"),
      because("leaked"),
      String(failed.filter((line) => contextFailure(line) === undefined).length),
      ...(resumed ? [...resumedCells(results, mode), String(linesOf(results, mode, "resumed").filter((line) => contextFailure(line) === "lost").length)] : []),
    ];
  });
  return {
    id: "gap",
    heading: "Resolution, the gap, and why switched sessions failed",
    header: [
      "mode",
      "uninterrupted",
      "switched",
      "gap (pts)",
      "recovers native's gap",
      `switched: ${CONTEXT_FAILURE_NAMES.lost}`,
      `switched: ${CONTEXT_FAILURE_NAMES.leaked}`,
      "switched: other failure",
      ...(resumed ? [...RESUMED_HEADER, `resumed: ${CONTEXT_FAILURE_NAMES.lost}`] : []),
    ],
    ...(resumed ? { note: RESUMED_NOTE } : {}),
    rows,
  };
}

/** How the cost table's and the token charts' counts were made, said once for both reports. */
const REPORTED_NOTE =
  "Reported: the agent's model's own counts, which OpenCode stored with each model call (the line's usage), summed over the session. input: every prompt token, cached included; cached: of those, read from the provider's prompt cache; cache write: of those, written to it; output: reasoning included. The scripted agents' model reports a call's input as the characters of its messages as JSON over 4, without the tool definitions, and nothing cached.";

function costTable(results: readonly ResultLine[]): ReportTable {
  const rows = groups(results).map(({ mode, condition, group }) => {
    const mean = (pick: (line: ResultLine) => number) => String(Math.round(group.reduce((sum, line) => sum + pick(line), 0) / group.length));
    return [
      mode,
      condition,
      String(group.length),
      mean((l) => l.usage.inputTokens),
      mean((l) => l.usage.cachedInputTokens),
      mean((l) => l.usage.cacheWriteTokens),
      mean((l) => l.usage.outputTokens),
      mean((l) => l.usage.modelCalls),
      mean((l) => l.usage.toolCalls),
      mean((l) => l.resumed_focus.inputTokens),
      mean((l) => l.resumed_focus.outputTokens),
      mean((l) => l.resumed_focus.modelCalls),
      mean((l) => l.aux.calls),
      mean((l) => l.aux.inputTokens),
      mean((l) => l.aux.outputTokens),
    ];
  });
  const header = [
    "mode",
    "condition",
    "n",
    "input (reported)",
    "cached (reported)",
    "cache write (reported)",
    "output (reported)",
    "model calls",
    "tool calls",
    "resumed-focus input (reported)",
    "resumed-focus output (reported)",
    "resumed-focus calls",
    "aux calls",
    "aux input (reported)",
    "aux output (reported)",
  ];
  const note = `${REPORTED_NOTE} resumed-focus: the focus task's requests after its first stage. aux: the plug-in's own model (routing, memory updates), as its endpoint reported it.`;
  return { id: "cost", heading: "Cost per session (means, reported tokens)", note, header, rows };
}

function fidelityTable(results: readonly ResultLine[]): ReportTable | undefined {
  if (!results.some((line) => line.fidelity !== undefined)) return undefined;
  const rows = groups(results).map(({ mode, condition, group }) => [
    mode,
    condition,
    ...(["resume", "finalize"] as const).flatMap((at) => {
      const summary = fidelitySummary(group, at);
      const cited = summary.cited ? ` (${percent(summary.cited)} cited)` : "";
      return [String(summary.points), `${percent(summary.present)}${cited}`, percent(summary.otherShare)];
    }),
  ]);
  return {
    id: "fidelity",
    heading: "Context fidelity (what the model received)",
    note: "At the first model call of each request that resumes the focus task after another task's, and of the finalization request: the share of the focus's earlier requirements (its stage requests) present word for word or as a memory-record constraint citing them (cited only in brackets), and the share of the conversation's estimated tokens that belong to other tasks. Pooled over the points; the system prompt and tools are not counted.",
    header: ["mode", "condition", "resumptions", "requirements present", "other tasks' share", "finalizations", "requirements present", "other tasks' share"],
    rows,
  };
}

/** What a cache source's counts are, in the cache table's words. */
const CACHE_SOURCE_NAMES: Record<CacheTokens["source"], string> = { provider: "reported", simulated: "estimated" };

function cacheCostTable(results: readonly ResultLine[], readPrice: number): ReportTable | undefined {
  if (!results.some((line) => line.cache !== undefined)) return undefined;
  const rows: string[][] = [];
  for (const condition of CONDITIONS) {
    const native = costSummary(linesOf(results, "native", condition), readPrice);
    for (const mode of modesOf(results)) {
      const summary = costSummary(linesOf(results, mode, condition), readPrice);
      if (!summary) continue;
      const ratio = native ? `${(summary.cost / native.cost).toFixed(3)}x` : "-";
      const source = summary.sources.map((one) => CACHE_SOURCE_NAMES[one]).join("+");
      rows.push([
        mode,
        condition,
        String(summary.sessions),
        source,
        String(Math.round(summary.inputTokens)),
        String(Math.round(summary.cachedTokens)),
        String(Math.round(summary.cost)),
        ratio,
      ]);
    }
  }
  const sources = [...new Set(results.flatMap((line) => (line.cache ? [line.cache.source] : [])))];
  const only = sources.length === 1 ? sources[0] : undefined;
  const input = only === "simulated" ? "input (estimated)" : only === "provider" ? "input (reported)" : "input (see source)";
  const cached = only === "simulated" ? "cached (estimated: simulated prefix cache)" : only === "provider" ? "cached (reported)" : "cached (see source)";
  return {
    id: "cache-cost",
    heading: `Cache-aware input cost per session (means; cached reads at ${readPrice}x)`,
    note: `reported: the provider's own counts, the cost table's input and cached. estimated: every recorded model call as the provider received it (tool definitions, system prompt and messages, as JSON) at ${CHARS_PER_TOKEN} characters per token, with OpenAI-style prefix caching (1,024-token minimum, 128-token blocks) replayed over the session's calls. It counts the tool definitions on every call, which the scripted model's reported input leaves out, and 3.5 characters per token against its 4, so on the mini suite it is 2 to 3 times the cost table's input for the same sessions. Cost is in uncached-token units.`,
    header: ["mode", "condition", "n", "source", input, cached, "cost", "vs native"],
    rows,
  };
}

function failuresTable(results: readonly ResultLine[]): ReportTable {
  const traced = results.some((line) => line.focus_write !== undefined);
  const rows = groups(results).map(({ mode, condition, group }) => {
    const count = (kind: ResultLine["failure_class"]) => String(group.filter((line) => line.failure_class === kind).length);
    const because = (why: "lost" | "leaked") => String(group.filter((line) => contextFailure(line) === why).length);
    return [
      mode,
      condition,
      count("resolved"),
      count("implementation"),
      ...(traced ? [because("lost"), because("leaked")] : []),
      count("submission"),
      count("incomplete"),
    ];
  });
  const header = [
    "mode",
    "condition",
    "resolved",
    "implementation",
    ...(traced ? [`of which ${CONTEXT_FAILURE_NAMES.lost}`, `of which ${CONTEXT_FAILURE_NAMES.leaked}`] : []),
    "submission",
    "incomplete",
  ];
  const note = traced
    ? "Lost requirement: the faithful agent wrote the focus task's files without one of its earlier requirements, which the call did not show it. Leaked requirement: it applied another task's requirement that the call showed it, taken for the focus task's."
    : undefined;
  return { id: "failures", heading: "Failures", ...(note ? { note } : {}), header, rows };
}

function sessionsTable(results: readonly ResultLine[]): ReportTable {
  const rows = [...results]
    .sort((a, b) => a.session_id.localeCompare(b.session_id) || a.mode.localeCompare(b.mode))
    .map((line) => [
      line.session_id,
      line.mode,
      line.resolved ? "yes" : "no",
      failureText(line),
      String(line.usage.modelCalls),
      String(line.usage.toolCalls),
      (line.wall_ms / 1000).toFixed(1),
    ]);
  return { id: "sessions", heading: "Sessions", header: ["session", "mode", "resolved", "class", "model calls", "tool calls", "wall s"], rows };
}

/** The failure class, with what the faithful agent's last write of the focus lacked or took in. */
function failureText(line: ResultLine): string {
  const why = contextFailure(line);
  if (why === undefined || line.focus_write === undefined) return line.failure_class;
  const what = why === "lost" ? line.focus_write.lost.join(", ") : line.focus_write.leaked.join(", ");
  return `${line.failure_class}: ${CONTEXT_FAILURE_NAMES[why]} (${what})`;
}

/** Mode × condition groups that have lines, modes in the paper's order. */
function groups(results: readonly ResultLine[]) {
  return modesOf(results).flatMap((mode) =>
    CONDITIONS.flatMap((condition) => {
      const group = linesOf(results, mode, condition);
      return group.length === 0 ? [] : [{ mode, condition, group }];
    }),
  );
}

function share(group: readonly ResultLine[]): string {
  const value = resolvedRate(group);
  return value === undefined ? "-" : `${percent(value)} (${group.filter((line) => line.resolved).length}/${group.length})`;
}
