import { createInterface } from "node:readline/promises";
import { RcmError } from "../kit/errors/rcm-error.js";
import { quoted, type ScreenCandidate, type SessionChooser } from "../plugin/store/on-screen-session.js";
import type { CliIo } from "./cli-io.js";

/** Asks on the terminal which session was meant; undefined when stdin or stdout is no terminal (a script, a pipe). */
export function terminalChooser(io: CliIo): SessionChooser | undefined {
  const { stdin, stdout } = io;
  if (stdin?.isTTY !== true || stdout.isTTY !== true) return undefined;
  return async (candidates) => {
    const lines = candidates.map((candidate, index) => `  ${index + 1}. ${describe(candidate)}`);
    stdout.write(`TUIs open here were used at the same time, on different sessions:\n${lines.join("\n")}\n`);
    // The terminal echoes what is typed; the question goes to io.stdout like the rest.
    const terminal = createInterface({ input: stdin });
    try {
      for (;;) {
        stdout.write(`Which session? [1-${candidates.length}, Enter to stop] `);
        const answer = (await terminal.question("")).trim();
        if (answer === "") throw new RcmError("session", "no session picked: pass the session id (or latest)");
        const picked = Number(answer);
        if (Number.isInteger(picked) && picked >= 1 && picked <= candidates.length) return picked - 1;
      }
    } finally {
      terminal.close();
    }
  };
}

function describe(candidate: ScreenCandidate): string {
  return `${candidate.sessionID} ${quoted(candidate.title)} (active ${new Date(candidate.activeAt).toLocaleTimeString()})`;
}
