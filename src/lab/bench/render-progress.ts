import type { BenchProgress } from "./run-bench.js";

/** One progress line: sessions done/total, mode, session, what it is doing, elapsed. */
export function renderProgress(event: BenchProgress, elapsedMs: number): string {
  const seconds = Math.floor(elapsedMs / 1000);
  const clock = `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
  return `[bench ${clock}] ${event.done}/${event.total} sessions · ${event.mode} · ${event.session} · ${event.activity}`;
}
