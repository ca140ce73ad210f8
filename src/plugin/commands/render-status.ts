import type { CallReport } from "../../core/context/call-report.js";
import type { Ledger, LedgerEntry } from "../../core/routing/ledger.js";
import type { Options } from "../../config/options-schema.js";
import type { SessionState } from "../../store/session-state-file.js";

/** `/rcm status`: mode, router, the session's tasks, the current task, the last decision, the savings. */
export function renderStatus(options: Options, state: SessionState | undefined): string {
  const head = `opencode-rcm: mode ${options.mode}, router ${options.router}, threshold ${options.confidenceThreshold}`;
  if (options.mode === "native") return `${head}\nNative mode: the plug-in changes nothing (set mode in rcm.jsonc).`;
  if (!state) return `${head}\nThis is a sub-agent session: the plug-in leaves it untouched.`;
  const { ledger, saved } = state;
  const lines = [`${head}, ${state.off ? "OFF for this session (/rcm on to resume)" : "on"}`];
  lines.push(...renderTaskTable(ledger));
  const lastID = ledger.order.at(-1);
  const last = lastID === undefined ? undefined : ledger.decisions[lastID];
  if (last) lines.push(`Last decision: ${describeDecision(ledger, last)}`);
  lines.push(
    `Saved so far: ~${saved.routingTokens.toLocaleString("en")} tokens by routing, ~${saved.memoryTokens.toLocaleString("en")} by memory, over ${saved.calls} model calls (estimated, not sent)`,
  );
  return lines.join("\n");
}

/** The session's tasks, one line each: id, title, status, requests, when last active. */
export function renderTaskTable(ledger: Ledger): string[] {
  if (ledger.tasks.length === 0) return ["No tasks yet: the first request opens t1."];
  const current = ledger.decisions[ledger.order.at(-1) ?? ""]?.task;
  const lines = [`Tasks (${ledger.tasks.length}):`];
  for (const task of ledger.tasks) {
    const positions = ledger.order.flatMap((id, position) => (ledger.decisions[id]?.task === task.id ? [position] : []));
    const lastPosition = positions.at(-1);
    const status = task.id === current ? "current" : positions.length === 0 ? "empty" : "suspended";
    const since = lastPosition === undefined ? undefined : ledger.order.length - 1 - lastPosition;
    const ago = since === undefined ? "never" : since === 0 ? "latest request" : `${since} request${since === 1 ? "" : "s"} ago`;
    lines.push(`${task.id === current ? "*" : " "} ${task.id.padEnd(4)} ${status.padEnd(9)} ${String(positions.length).padStart(3)} req  last: ${ago.padEnd(15)} ${task.title}`);
  }
  return lines;
}

export function describeDecision(ledger: Ledger, entry: LedgerEntry): string {
  const title = ledger.tasks.find((task) => task.id === entry.task)?.title ?? "";
  const what = entry.shared ? "shared instruction (all tasks)" : `${entry.opened ? "opened " : ""}${entry.task} "${title}"`;
  return `${what}, confidence ${entry.confidence}, ${entry.router} router: ${entry.reason}`;
}

const MAX_RELABELS_SHOWN = 3;

/** `/rcm why`: what the last model call received and why. */
export function renderWhy(options: Options, report: CallReport | undefined, state: SessionState | undefined): string {
  if (state?.off) return "opencode-rcm is off for this session (/rcm off): every model call gets the native history.";
  if (!report) return "No model call of this session has passed through opencode-rcm since OpenCode started.";
  const head = report.fallback
    ? `Full history (fallback): ${report.reason}${report.task ? `; routed to ${report.task} at confidence ${report.confidence}` : ""}`
    : options.mode === "memory"
      ? `Task ${report.task}, confidence ${report.confidence} (mode memory: other tasks stay in view; the record replaces what it covers)`
      : `Narrowed to ${report.reason}, confidence ${report.confidence}`;
  const groups = report.groups.map((tally) => {
    const parts = [tally.kept > 0 ? `${tally.kept} kept` : "", tally.replaced > 0 ? `${tally.replaced} replaced by its record` : "", tally.dropped > 0 ? `${tally.dropped} left out` : ""];
    return `  ${tally.label}: ${parts.filter(Boolean).join(", ")}`;
  });
  const { native, routingSaved, memorySaved } = report.tokens;
  return [
    `Last model call (mode ${options.mode}): ${head}`,
    "Groups by task:",
    ...groups,
    `Messages: ${report.messagesBefore} -> ${report.messagesAfter}; estimated tokens ${native} -> ${native - routingSaved - memorySaved} (routing -${routingSaved}, memory -${memorySaved})`,
    `Record: ${report.memory ?? "memory is off in this mode"}`,
    ...relabelLines(state),
  ].join("\n");
}

/** Requests the session relabelled after their edits showed their task, the latest few. */
function relabelLines(state: SessionState | undefined): string[] {
  if (!state) return [];
  const { order, decisions } = state.ledger;
  const relabelled = order.flatMap((messageID, position) => {
    const entry = decisions[messageID];
    return entry?.relabelled ? [`  request ${position + 1}: routed to ${entry.relabelled.from}, now ${entry.task} (its edits: ${entry.relabelled.files.join(", ")})`] : [];
  });
  if (relabelled.length === 0) return [];
  return [`Relabelled by their edits (${relabelled.length}; later routing and memory follow them):`, ...relabelled.slice(-MAX_RELABELS_SHOWN)];
}
