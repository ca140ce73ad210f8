import { groupRequestID } from "../interaction-groups.js";
import { estimateTokens } from "../memory/estimate-tokens.js";
import { covers, type TaskRecord } from "../memory/record.js";
import type { Ledger } from "../routing/ledger.js";
import { planTokens } from "./call-report.js";
import type { CallView } from "./call-view.js";
import { type ContextPlan, withDropped, withInsertedBefore } from "./context-plan.js";
import { recordMessage } from "./replace-covered-exchanges.js";

/**
 * Step, on the older history OpenCode is about to summarize: each task's record takes the
 * place of the exchanges it covers (the user's requests stay), so what the summarizer reads
 * is the records, not the records on top of everything they cover (a record that replaces
 * nothing and covers nothing older than this history is left out: the requests here say it all). A task with a record but
 * nothing in this history (an earlier compaction summarized it) gets its record at the end,
 * in opening order, only while the call stays within `budget` (estimated tokens), trimmed to
 * the room left if need be (`render(task, maxTokens)`, constraints kept).
 */
export function recordsForCompaction(options: {
  view: CallView;
  ledger: Ledger;
  records: Readonly<Record<string, TaskRecord>>;
  render: (task: string, maxTokens?: number) => string;
  budget?: number | undefined;
}): { plan: ContextPlan; placed: string[]; appended: string[] } {
  const { view, ledger, records, render } = options;
  const { messages, groups, tasks } = view;
  let plan: ContextPlan = { dropped: new Set(), before: new Map(), appended: new Map() };
  const placed: string[] = [];
  const absent: string[] = [];
  for (const task of ledger.tasks) {
    const record = records[task.id];
    if (!record) continue;
    const own = groups.filter((_, position) => tasks[position]?.kind === "task" && (tasks[position] as { task: string }).task === task.id);
    const first = own.find((group) => group.kind === "request");
    if (!first) {
      absent.push(task.id);
      continue;
    }
    const exchanges = own
      .filter((group) => group.kind === "request" && covers(record, groupRequestID(group)))
      .flatMap((group) => group.indices.filter((index) => messages[index]?.info.role !== "user"));
    // Nothing replaced and nothing older than this history: the requests here say it all.
    const inView = new Set(own.map(groupRequestID));
    if (exchanges.length === 0 && record.coverage.groups.every((id) => inView.has(id))) continue;
    plan = withDropped(plan, exchanges);
    const at = first.indices.find((index) => messages[index]?.info.role === "user");
    const anchor = at === undefined ? undefined : messages[at];
    if (at !== undefined && anchor)
      plan = withInsertedBefore(plan, at, recordMessage(anchor, task.id, render(task.id), `${anchor.info.id}-rcm-compaction-${task.id}`));
    placed.push(task.id);
  }
  const appended: string[] = [];
  // At the top: those tasks' history is older than anything here.
  const anchor = messages.find((message) => message.info.role === "user");
  for (const task of absent) {
    if (!anchor) break;
    let text = render(task);
    if (options.budget !== undefined) {
      const room = options.budget - planTokens(messages, plan);
      if (estimateTokens(text) > room) text = room > 0 ? render(task, room) : "";
      if (text === "" || estimateTokens(text) > room) break;
    }
    plan = withInsertedBefore(plan, 0, recordMessage(anchor, task, text, `${anchor.info.id}-rcm-compaction-${task}`));
    appended.push(task);
  }
  return { plan, placed, appended };
}
