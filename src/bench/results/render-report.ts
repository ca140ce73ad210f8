import type { ResultLine } from "./result-line.js";

const MODE_ORDER = ["native", "router", "memory", "full"] as const;

/** `report.md`: resolution, gaps, cost and failures per mode and condition. */
export function renderReport(results: readonly ResultLine[], options: { title: string }): string {
  const modes = MODE_ORDER.filter((mode) => results.some((line) => line.mode === mode));
  const lines = [`# ${options.title}`, "", `${results.length} session runs.`, ""];
  lines.push("## Resolution", "", "| mode | uninterrupted | switched | gap (pts) | near gap | far gap |", "| --- | --- | --- | --- | --- | --- |");
  for (const mode of modes) {
    const of = (condition: string, locality?: string) =>
      results.filter((line) => line.mode === mode && line.condition === condition && (locality === undefined || line.locality === locality));
    const gap = (locality?: string) => points(rate(of("uninterrupted", locality)), rate(of("switched", locality)));
    lines.push(`| ${mode} | ${share(of("uninterrupted"))} | ${share(of("switched"))} | ${gap()} | ${gap("near")} | ${gap("far")} |`);
  }
  lines.push(
    "",
    "## Cost per session (means)",
    "",
    "| mode | condition | n | tokens in | tokens out | cache read | cache write | model calls | tool calls | resumed-focus tokens | resumed-focus calls | aux calls | aux tokens |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const mode of modes) {
    for (const condition of ["uninterrupted", "switched"] as const) {
      const group = results.filter((line) => line.mode === mode && line.condition === condition);
      if (group.length === 0) continue;
      const mean = (pick: (line: ResultLine) => number) => Math.round(group.reduce((sum, line) => sum + pick(line), 0) / group.length);
      lines.push(
        `| ${mode} | ${condition} | ${group.length} | ${mean((l) => l.usage.inputTokens)} | ${mean((l) => l.usage.outputTokens)} | ` +
          `${mean((l) => l.usage.cacheReadTokens)} | ${mean((l) => l.usage.cacheWriteTokens)} | ${mean((l) => l.usage.modelCalls)} | ` +
          `${mean((l) => l.usage.toolCalls)} | ${mean((l) => l.resumed_focus.inputTokens + l.resumed_focus.outputTokens)} | ` +
          `${mean((l) => l.resumed_focus.modelCalls)} | ${mean((l) => l.aux.calls)} | ${mean((l) => l.aux.inputTokens + l.aux.outputTokens)} |`,
      );
    }
  }
  lines.push("", "## Failures", "", "| mode | condition | resolved | implementation | submission | incomplete |", "| --- | --- | --- | --- | --- | --- |");
  for (const mode of modes) {
    for (const condition of ["uninterrupted", "switched"] as const) {
      const group = results.filter((line) => line.mode === mode && line.condition === condition);
      if (group.length === 0) continue;
      const count = (kind: ResultLine["failure_class"]) => group.filter((line) => line.failure_class === kind).length;
      lines.push(`| ${mode} | ${condition} | ${count("resolved")} | ${count("implementation")} | ${count("submission")} | ${count("incomplete")} |`);
    }
  }
  lines.push("", "## Sessions", "", "| session | mode | resolved | class | model calls | tool calls | wall s |", "| --- | --- | --- | --- | --- | --- | --- |");
  for (const line of [...results].sort((a, b) => a.session_id.localeCompare(b.session_id) || a.mode.localeCompare(b.mode))) {
    lines.push(
      `| ${line.session_id} | ${line.mode} | ${line.resolved ? "yes" : "no"} | ${line.failure_class} | ${line.usage.modelCalls} | ${line.usage.toolCalls} | ${(line.wall_ms / 1000).toFixed(1)} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

function rate(group: readonly ResultLine[]): number | undefined {
  return group.length === 0 ? undefined : group.filter((line) => line.resolved).length / group.length;
}

function share(group: readonly ResultLine[]): string {
  const value = rate(group);
  return value === undefined ? "-" : `${(value * 100).toFixed(1)}% (${group.filter((line) => line.resolved).length}/${group.length})`;
}

function points(uninterrupted: number | undefined, switched: number | undefined): string {
  return uninterrupted === undefined || switched === undefined ? "-" : ((uninterrupted - switched) * 100).toFixed(1);
}
