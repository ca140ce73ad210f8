/**
 * The standard conversation-disentanglement figures, computed as Kummerfeld et al. (ACL 2019)
 * compute them (their tools/evaluation/dstc8-evaluation.py and conversation-eval.py), so that
 * the router's clusters can stand next to their published tables:
 *
 * - one-to-one overlap (Elsner and Charniak, 2008): gold and predicted conversations paired
 *   one to one so that the messages they share are as many as possible, as a share of all
 *   messages (an exact assignment, here the Hungarian method);
 * - 1 - scaled variation of information: VI(gold, predicted) divided by its bound log(n);
 * - exact match: precision, recall and F1 of conversations predicted exactly, leaving out
 *   conversations of one message on both sides.
 *
 * Figures are percentages (0-100) as the paper prints them. Several streams (one per
 * annotated file) are pooled as the paper pools its files: a conversation never spans two
 * streams, one-to-one and exact match add up over them, and VI is taken over the pooled
 * contingency table with n the messages of all streams.
 */

/** One stream of messages: each message's gold and predicted conversation, in order. */
export interface ConversationLabels {
  gold: readonly string[];
  predicted: readonly string[];
}

interface ExactMatch {
  /** Predicted conversations of 2+ messages that equal a gold one. */
  matched: number;
  /** Gold conversations of 2+ messages. */
  gold: number;
  /** Predicted conversations of 2+ messages. */
  predicted: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface OverlapFigures {
  messages: number;
  goldConversations: number;
  predictedConversations: number;
  /** Messages in the best one-to-one pairing of conversations, as a percentage of all. */
  oneToOne: number;
  /** 100 * (1 - VI / log n): 100 is identical clusterings. */
  scaledVI: number;
  exact: ExactMatch;
}

/** The figures for one or more streams, pooled as the paper pools its annotated files. */
export function conversationOverlap(streams: readonly ConversationLabels[]): OverlapFigures {
  let messages = 0;
  let matchedByPairing = 0;
  let goldConversations = 0;
  let predictedConversations = 0;
  const exact = { matched: 0, gold: 0, predicted: 0 };
  /** Cell, row and column counts of the pooled contingency table. */
  const cells: number[] = [];
  const goldSizes: number[] = [];
  const predictedSizes: number[] = [];
  streams.forEach((stream, index) => {
    if (stream.gold.length !== stream.predicted.length) {
      throw new RangeError(`stream ${index}: ${stream.gold.length} gold labels but ${stream.predicted.length} predicted`);
    }
    const table = contingencyOf(stream);
    messages += stream.gold.length;
    goldConversations += table.goldSizes.length;
    predictedConversations += table.predictedSizes.length;
    matchedByPairing += maxWeightMatching(table.counts);
    for (const row of table.counts) for (const count of row) if (count > 0) cells.push(count);
    goldSizes.push(...table.goldSizes);
    predictedSizes.push(...table.predictedSizes);
    const found = exactMatchCounts(table);
    exact.matched += found.matched;
    exact.gold += found.gold;
    exact.predicted += found.predicted;
  });
  if (messages === 0) throw new RangeError("no messages to compare");
  const precision = exact.predicted === 0 ? 0 : (100 * exact.matched) / exact.predicted;
  const recall = exact.gold === 0 ? 0 : (100 * exact.matched) / exact.gold;
  return {
    messages,
    goldConversations,
    predictedConversations,
    oneToOne: (100 * matchedByPairing) / messages,
    scaledVI: scaledVariationOfInformation(cells, goldSizes, predictedSizes, messages),
    exact: { ...exact, precision, recall, f1: exact.matched === 0 ? 0 : (2 * precision * recall) / (precision + recall) },
  };
}

/**
 * The paper's "Previous" baseline: each message is linked to the most recent non-system
 * message before it, so every message of a stream lands in one conversation. `system`
 * messages are linked too (`"linked"`, the paper's section 5) or left unlinked, each its own
 * conversation (`"alone"`, the supplement's wording); on a stream without system messages
 * both are one conversation.
 */
export function linkToPrevious(system: readonly boolean[], systemMessages: "linked" | "alone"): string[] {
  return system.map((isSystem, index) => (isSystem && systemMessages === "alone" ? `alone-${index}` : "previous"));
}

/** Every message its own conversation (Elsner and Charniak's "all different"; not in Kummerfeld et al.'s tables). */
export function eachAlone(messages: number): string[] {
  return Array.from({ length: messages }, (_, index) => `alone-${index}`);
}

interface Contingency {
  /** counts[g][p]: messages in gold conversation g and predicted conversation p. */
  counts: number[][];
  goldSizes: number[];
  predictedSizes: number[];
  /** For each gold conversation, its messages' positions (for exact match). */
  goldMembers: number[][];
  predictedMembers: number[][];
}

function contingencyOf(stream: ConversationLabels): Contingency {
  const goldIndex = new Map<string, number>();
  const predictedIndex = new Map<string, number>();
  const goldMembers: number[][] = [];
  const predictedMembers: number[][] = [];
  const place = (label: string, index: Map<string, number>, members: number[][], position: number): number => {
    let at = index.get(label);
    if (at === undefined) {
      at = members.length;
      index.set(label, at);
      members.push([]);
    }
    members[at]?.push(position);
    return at;
  };
  const pairs = stream.gold.map((label, position): [number, number] => [
    place(label, goldIndex, goldMembers, position),
    place(stream.predicted[position] as string, predictedIndex, predictedMembers, position),
  ]);
  const counts = goldMembers.map(() => new Array<number>(predictedMembers.length).fill(0));
  for (const [g, p] of pairs) {
    const row = counts[g] as number[];
    row[p] = (row[p] as number) + 1;
  }
  return {
    counts,
    goldSizes: goldMembers.map((members) => members.length),
    predictedSizes: predictedMembers.map((members) => members.length),
    goldMembers,
    predictedMembers,
  };
}

/** VI = H(gold, predicted) - I(gold; predicted), in bits, scaled by its bound log2(n) (conversation-eval.py). */
function scaledVariationOfInformation(cells: readonly number[], goldSizes: readonly number[], predictedSizes: readonly number[], n: number): number {
  if (n <= 1) return 100;
  const entropy = (sizes: readonly number[]) => sizes.reduce((sum, size) => sum - (size / n) * Math.log2(size / n), 0);
  // VI = 2 H(G,P) - H(G) - H(P), the same quantity as H(G,P) - I(G;P).
  const vi = 2 * entropy(cells) - entropy(goldSizes) - entropy(predictedSizes);
  return 100 - (100 * Math.max(0, vi)) / Math.log2(n);
}

function exactMatchCounts(table: Contingency): { matched: number; gold: number; predicted: number } {
  const key = (members: readonly number[]) => members.join(",");
  const predicted = new Set(table.predictedMembers.filter((members) => members.length > 1).map(key));
  const gold = table.goldMembers.filter((members) => members.length > 1);
  return { matched: gold.filter((members) => predicted.has(key(members))).length, gold: gold.length, predicted: predicted.size };
}

/**
 * The largest total weight of a one-to-one pairing of rows with columns (weights >= 0): the
 * Hungarian method with potentials on the cost -weight, O(rows^2 * columns) with rows <= columns.
 */
export function maxWeightMatching(weights: readonly (readonly number[])[]): number {
  const rowCount = weights.length;
  const columnCount = weights[0]?.length ?? 0;
  if (rowCount === 0 || columnCount === 0) return 0;
  // The method pairs every row: transpose so that rows are the shorter side.
  const transpose = rowCount > columnCount;
  const rows = transpose ? columnCount : rowCount;
  const columns = transpose ? rowCount : columnCount;
  const cost = (row: number, column: number): number => -((transpose ? weights[column - 1]?.[row - 1] : weights[row - 1]?.[column - 1]) ?? 0);
  // 1-based, with index 0 as the free slot the augmenting path starts from.
  const rowPotential = new Float64Array(rows + 1);
  const columnPotential = new Float64Array(columns + 1);
  const rowOfColumn = new Int32Array(columns + 1);
  const way = new Int32Array(columns + 1);
  for (let row = 1; row <= rows; row++) {
    rowOfColumn[0] = row;
    let column0 = 0;
    const least = new Float64Array(columns + 1).fill(Number.POSITIVE_INFINITY);
    const used = new Uint8Array(columns + 1);
    do {
      used[column0] = 1;
      const row0 = rowOfColumn[column0] as number;
      let delta = Number.POSITIVE_INFINITY;
      let column1 = 0;
      for (let column = 1; column <= columns; column++) {
        if (used[column]) continue;
        const reduced = cost(row0, column) - (rowPotential[row0] as number) - (columnPotential[column] as number);
        if (reduced < (least[column] as number)) {
          least[column] = reduced;
          way[column] = column0;
        }
        if ((least[column] as number) < delta) {
          delta = least[column] as number;
          column1 = column;
        }
      }
      for (let column = 0; column <= columns; column++) {
        if (used[column]) {
          const row1 = rowOfColumn[column] as number;
          rowPotential[row1] = (rowPotential[row1] as number) + delta;
          columnPotential[column] = (columnPotential[column] as number) - delta;
        } else least[column] = (least[column] as number) - delta;
      }
      column0 = column1;
    } while (rowOfColumn[column0] !== 0);
    do {
      const column1 = way[column0] as number;
      rowOfColumn[column0] = rowOfColumn[column1] as number;
      column0 = column1;
    } while (column0 !== 0);
  }
  let total = 0;
  for (let column = 1; column <= columns; column++) {
    const row = rowOfColumn[column] as number;
    if (row !== 0) total -= cost(row, column);
  }
  return total;
}
