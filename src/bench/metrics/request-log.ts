import { open, stat } from "node:fs/promises";
import type { ChatBody } from "./chat-body.js";

/** Workspaces live at `<run>/sessions/<session id>/<mode>/wsN`, and every request names its workspace. */
const SESSION_PATH = /\/sessions\/([^/"\s\\]+)\/(native|router|memory|full)\//;

/**
 * The scripted model's request log of one mode (`model-requests/<mode>.jsonl`), read
 * incrementally while sessions run concurrently: each read takes the bytes appended since the
 * last one and files the calls under their session (found by the workspace path they name),
 * so a run reads its log once, not once per session. Only calls logged after it was opened
 * count: a resumed run's log also holds the calls of sessions interrupted before.
 */
export class SessionRequestLog {
  private readonly calls = new Map<string, ChatBody[]>();

  private constructor(
    private readonly file: string,
    private offset: number,
  ) {}

  static async open(file: string): Promise<SessionRequestLog> {
    const size = await stat(file).then((info) => info.size, () => 0);
    return new SessionRequestLog(file, size);
  }

  /** The session's calls in the order the model received them; they are handed out once. */
  async take(sessionID: string): Promise<ChatBody[]> {
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
      for (const line of buffer.subarray(0, end).toString("utf8").split("\n")) this.fileLine(line);
    } finally {
      await handle.close();
    }
  }

  private fileLine(line: string): void {
    const session = SESSION_PATH.exec(line)?.[1];
    if (session === undefined) return;
    let body: ChatBody;
    try {
      body = (JSON.parse(line) as { body: ChatBody }).body;
    } catch {
      return;
    }
    if (!Array.isArray(body?.messages)) return;
    const list = this.calls.get(session) ?? [];
    list.push(body);
    this.calls.set(session, list);
  }
}
