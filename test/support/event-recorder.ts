import type { OpencodeClient } from "@opencode-ai/sdk/v2";

export interface RecordedEvent {
  type: string;
  properties: Record<string, unknown>;
}

export interface EventRecorder {
  /** Every event received so far, oldest first. */
  readonly events: readonly RecordedEvent[];
  /** Resolves with the first event (already received or later) that matches, or rejects after `timeoutMs`. */
  waitFor(match: (event: RecordedEvent) => boolean, timeoutMs?: number): Promise<RecordedEvent>;
  close(): void;
}

/** Subscribes to a server's event stream (`/event`) and keeps every event, for assertions. */
export async function recordEvents(client: OpencodeClient): Promise<EventRecorder> {
  const controller = new AbortController();
  const events: RecordedEvent[] = [];
  const waiters = new Set<() => void>();
  const subscription = await client.event.subscribe({}, { signal: controller.signal });
  void (async () => {
    try {
      for await (const event of subscription.stream as AsyncIterable<RecordedEvent>) {
        events.push(event);
        for (const wake of waiters) wake();
      }
    } catch {
      // Closed by close(), or the server stopped.
    }
  })();
  return {
    events,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          finish();
          resolve(found);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no matching event within ${timeoutMs} ms; saw: ${events.map((event) => event.type).join(", ")}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}
