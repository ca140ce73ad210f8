import { clip } from "../../plugin/core/clip.js";
import type { DemoResult } from "./run-demo.js";

/** The demo's report: per model call, what the model saw and which earlier requests it was not shown. */
export function renderDemo(result: DemoResult): string {
  const lines = [
    `opencode-rcm demo: ${result.prompts.length} requests, ${result.calls.length} model calls, mode ${result.mode}, ${(result.wallMs / 1000).toFixed(1)} s`,
    "",
  ];
  for (const call of result.calls) {
    lines.push(`call ${call.index + 1}: ${call.messageCount} messages, ${call.chars} chars`);
    for (const text of call.userTexts) lines.push(`  user: ${oneLine(text)}`);
    for (const text of call.leftOut) lines.push(`  left out: ${oneLine(text)}`);
    if (call.toolCalls.length > 0) lines.push(`  tool calls in view: ${call.toolCalls.join(", ")}`);
    if (call.annotation) lines.push(`  plug-in: ${call.annotation}`);
  }
  lines.push(
    "",
    "notes/todo.md as OpenCode left it:",
    ...result.finalFile
      .trimEnd()
      .split("\n")
      .map((line) => `  ${line}`),
  );
  if (result.runDir) lines.push("", `run directory kept: ${result.runDir}`);
  return lines.join("\n");
}

function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, " ").trim(), 110, { ellipsis: "..." });
}
