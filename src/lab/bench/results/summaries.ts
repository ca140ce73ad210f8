import { MODES, type Mode } from "../../../plugin/config/modes.js";
import { cacheAwareCost } from "../metrics/cache-cost.js";
import type { CacheTokens, FidelityPoint, ResultLine } from "../run-dir/result-line.js";
import type { Condition } from "../suite/schema.js";

/** The modes present in a run, in the paper's order. */
export function modesOf(results: readonly ResultLine[]): Mode[] {
  return MODES.filter((mode) => results.some((line) => line.mode === mode));
}

export function linesOf(results: readonly ResultLine[], mode: Mode, condition?: Condition, locality?: ResultLine["locality"]): ResultLine[] {
  return results.filter(
    (line) => line.mode === mode && (condition === undefined || line.condition === condition) && (locality === undefined || line.locality === locality),
  );
}

/** Share resolved, undefined for no lines. */
export function resolvedRate(group: readonly ResultLine[]): number | undefined {
  return group.length === 0 ? undefined : group.filter((line) => line.resolved).length / group.length;
}

/** Uninterrupted minus switched resolution, in points (undefined when either is missing). */
export function gapPoints(results: readonly ResultLine[], mode: Mode, locality?: ResultLine["locality"]): number | undefined {
  const uninterrupted = resolvedRate(linesOf(results, mode, "uninterrupted", locality));
  const switched = resolvedRate(linesOf(results, mode, "switched", locality));
  return uninterrupted === undefined || switched === undefined ? undefined : (uninterrupted - switched) * 100;
}

/**
 * The share of native's switched gap a mode closes: how far its switched resolution climbs
 * from native's switched toward native's uninterrupted. Undefined without a native gap.
 */
export function recoveredShare(results: readonly ResultLine[], mode: Mode): number | undefined {
  const nativeUninterrupted = resolvedRate(linesOf(results, "native", "uninterrupted"));
  const nativeSwitched = resolvedRate(linesOf(results, "native", "switched"));
  const switched = resolvedRate(linesOf(results, mode, "switched"));
  if (nativeUninterrupted === undefined || nativeSwitched === undefined || switched === undefined) return undefined;
  const gap = nativeUninterrupted - nativeSwitched;
  return gap > 0 ? (switched - nativeSwitched) / gap : undefined;
}

/** Why the faithful agent's focus files failed, where the run knows: a requirement of the focus lost from view, or another task's leaked in. */
export type ContextFailure = "lost" | "leaked";

export const CONTEXT_FAILURE_NAMES: Record<ContextFailure, string> = { lost: "lost requirement", leaked: "leaked requirement" };

export function contextFailure(line: ResultLine): ContextFailure | undefined {
  if (line.resolved || line.focus_write === undefined) return undefined;
  if (line.focus_write.lost.length > 0) return "lost";
  if (line.focus_write.leaked.length > 0) return "leaked";
  return undefined;
}

export interface FidelitySummary {
  points: number;
  /** Requirements present (verbatim or cited) over all requirements at these points, pooled. */
  present?: number;
  /** Present only as a record constraint citing them, pooled. */
  cited?: number;
  /** Other tasks' tokens over all context tokens at these points, pooled. */
  otherShare?: number;
}

/** Fidelity pooled over a group's points of one kind; lines without recorded calls are left out. */
export function fidelitySummary(group: readonly ResultLine[], at: FidelityPoint["at"]): FidelitySummary {
  const points = group.flatMap((line) => line.fidelity ?? []).filter((point) => point.at === at);
  const sum = (pick: (point: FidelityPoint) => number) => points.reduce((total, point) => total + pick(point), 0);
  const requirements = sum((point) => point.requirements);
  const context = sum((point) => point.context_tokens);
  return {
    points: points.length,
    ...(requirements > 0
      ? { present: (sum((point) => point.verbatim) + sum((point) => point.cited)) / requirements, cited: sum((point) => point.cited) / requirements }
      : {}),
    ...(context > 0 ? { otherShare: sum((point) => point.other_task_tokens) / context } : {}),
  };
}

export interface CostSummary {
  sessions: number;
  /** Where the lines' counts come from, in order. */
  sources: CacheTokens["source"][];
  inputTokens: number;
  cachedTokens: number;
  /** Mean cache-aware input cost per session, in uncached-token units. */
  cost: number;
}

/** Cache-aware cost over the lines that carry cache tokens. */
export function costSummary(group: readonly ResultLine[], readPrice: number): CostSummary | undefined {
  const withCache = group.flatMap((line) => (line.cache ? [line.cache] : []));
  if (withCache.length === 0) return undefined;
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    sessions: withCache.length,
    sources: [...new Set(withCache.map((cache) => cache.source))].sort(),
    inputTokens: mean(withCache.map((cache) => cache.input_tokens)),
    cachedTokens: mean(withCache.map((cache) => cache.cached_tokens)),
    cost: mean(withCache.map((cache) => cacheAwareCost(cache, readPrice))),
  };
}

export function percent(value: number | undefined, digits = 1): string {
  return value === undefined ? "-" : `${(value * 100).toFixed(digits)}%`;
}

/** Of a group's resumed lines that measured it: the focus's earlier requirements that reached the third session's first call, pooled. */
export interface CarriedSummary {
  /** Resumed lines that say what reached it. */
  sessions: number;
  carried: number;
  requirements: number;
  /** `<focus>: <stage>` of every missed requirement, in the lines' order. */
  missed: string[];
}

export function carriedSummary(group: readonly ResultLine[]): CarriedSummary {
  const measured = group.filter((line) => line.condition === "resumed" && line.resumption?.carried !== undefined);
  return {
    sessions: measured.length,
    carried: measured.reduce((sum, line) => sum + (line.resumption?.carried?.length ?? 0), 0),
    requirements: measured.reduce((sum, line) => sum + (line.resumption?.requirements.length ?? 0), 0),
    missed: measured.flatMap((line) => (line.resumption?.missed ?? []).map((stage) => `${line.focus}: ${stage}`)),
  };
}

/** "2/5 (40.0%)", or "-" when no resumed line measured it. */
export function carriedText(summary: CarriedSummary): string {
  if (summary.sessions === 0) return "-";
  const share = summary.requirements > 0 ? ` (${percent(summary.carried / summary.requirements)})` : "";
  return `${summary.carried}/${summary.requirements}${share}`;
}

/** Whether a run has resumed sessions: only then do the reports show the condition (a run without keeps its report as before). */
export function hasResumed(results: readonly ResultLine[]): boolean {
  return results.some((line) => line.condition === "resumed");
}
