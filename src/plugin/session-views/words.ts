/** Small pieces of the words the plug-in speaks to a person: one way to say each thing everywhere. */

/** A threshold as a person reads it: "80%", "82.5%" (never rounded across itself). */
export function thresholdPercent(threshold: number): string {
  const tenths = Math.round(threshold * 1000);
  return `${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)}%`;
}

/**
 * A decision's confidence as a person reads it, never contradicting the decision beside it:
 * whole percents ("92%") unless rounding would carry it across the threshold, then one
 * decimal ("79.7%" under 80%), and if even that would cross, cut towards the side it is on
 * ("79.9%" for 0.7999). Every surface (toasts, the panel, /rcm, the CLI) says it this way.
 */
export function surePercent(confidence: number, threshold: number): string {
  const sure = confidence >= threshold;
  // In tenths of a percent, so 0.8 is 800 and not 800.0000000001.
  const bar = Math.round(threshold * 10_000) / 10;
  const scaled = confidence * 1000;
  const whole = Math.round(scaled / 10) * 10;
  if (whole >= bar === sure) return `${whole / 10}%`;
  const tenths = Math.round(scaled);
  if (tenths >= bar === sure) return `${(tenths / 10).toFixed(1)}%`;
  const cut = sure ? Math.ceil(scaled) : Math.floor(scaled);
  return `${(cut / 10).toFixed(1)}%`;
}

/** "1 request", "3 requests". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A token count rounded for reading: "~850", "~12.3k". */
export function tokens(count: number): string {
  return count < 1000 ? `~${count}` : `~${(count / 1000).toFixed(count < 100_000 ? 1 : 0)}k`;
}

/** How long ago, as a person says it: "5 min ago", "30 h ago", "2 days ago" (hours up to two days: "yesterday" hides 47 of them). */
export function agoText(when: Date, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - when.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h ago`;
  return `${Math.round(minutes / 1440)} days ago`;
}
