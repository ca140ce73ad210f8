import { open, stat } from "node:fs/promises";
import { jsonlLines, parseJsonLine } from "../../jsonl/read-jsonl.js";
import type { ChatBody } from "../run-dir/chat-body.js";

/** Workspaces live at `<run>/sessions/<session id>/<mode>/wsN`, and every request names its workspace. */
const SESSION_PATH = /\/sessions\/([^/"\s\\]+)\/(native|router|memory|full)\//;

/**
 * A JSONL log that the sessions of one mode append to concurrently (the scripted model's
 * requests, the faithful agent's decisions), read incrementally: each read takes the bytes
 * appended since the last one and files the lines under their session (found by the workspace
 * path they name), so a run reads its log once, not once per session. Only lines logged after
 * it was opened count: a resumed run's log also holds the lines of sessions interrupted before.
 */
export class SessionLog<T> {
  private readonly calls = new Map<string, T[]>();

  private constructor(
    private readonly file: string,
    private offset: number,
    private readonly pick: (value: unknown) => T | undefined,
  ) {}

  /** `pick`: what a line's JSON value holds for the log's reader (undefined, or a throw: the line is skipped). */
  static async open<T>(file: string, pick: (value: unknown) => T | undefined): Promise<SessionLog<T>> {
    const size = await stat(file).then(
      (info) => info.size,
      () => 0,
    );
    return new SessionLog(file, size, pick);
  }

  /** The session's lines in the order they were logged; they are handed out once. */
  async take(sessionID: string): Promise<T[]> {
    await this.readNew();
    const calls = this.calls.get(sessionID) ?? [];
    this.calls.delete(sessionID);
    return calls;
  }

  private async readNew(): Promise<void> {
    const handle = await open(this.file, "r").catch(() => undefined);
    if (!handle) return;
    try {
      const { size } = await handle.stat();
      if (size <= this.offset) return;
      const buffer = Buffer.alloc(size - this.offset);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
      // Up to the last whole line only: a line being appended right now is read next time.
      const end = buffer.subarray(0, bytesRead).lastIndexOf(0x0a) + 1;
      this.offset += end;
      for (const { text } of jsonlLines(buffer.subarray(0, end).toString("utf8"))) this.fileLine(text);
    } finally {
      await handle.close();
    }
  }

  private fileLine(line: string): void {
    const session = SESSION_PATH.exec(line)?.[1];
    if (session === undefined) return;
    const json = parseJsonLine(line);
    if (!json.ok) return;
    let value: T | undefined;
    try {
      value = this.pick(json.value);
    } catch {
      return;
    }
    if (value === undefined) return;
    const list = this.calls.get(session) ?? [];
    list.push(value);
    this.calls.set(session, list);
  }
}

/** The scripted model's request log of one mode (`model-requests/<mode>.jsonl`): each session's calls. */
export type SessionRequestLog = SessionLog<ChatBody>;

export function openRequestLog(file: string): Promise<SessionRequestLog> {
  return SessionLog.open(file, (value) => {
    const body = (value as { body?: ChatBody }).body;
    return Array.isArray(body?.messages) ? body : undefined;
  });
}
