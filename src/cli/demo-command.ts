import { renderDemo } from "../lab/demo/render-demo.js";
import { runDemo } from "../lab/demo/run-demo.js";
import { MODES } from "../plugin/config/options-schema.js";
import { defineCli, mustBeOneOf } from "./declare.js";

/** `opencode-rcm demo`: a scripted multi-task session through the real OpenCode. */
export const demoCommand = defineCli({
  name: "demo",
  description: "Run a scripted multi-task session through the real OpenCode and print what the model received at each call.",
  details: "Offline: the model is a scripted one on 127.0.0.1.",
  args: {
    mode: { type: "enum", options: MODES, default: "full", description: "plug-in mode", invalid: mustBeOneOf("got") },
    "no-debug": { type: "boolean", description: "leave out the plug-in's debug annotation" },
    keep: { type: "boolean", description: "keep the run directory" },
    json: { type: "boolean", description: "print the result as JSON" },
  },
  async run(args, { io, env }) {
    const result = await runDemo({
      mode: args.mode,
      debug: !args["no-debug"],
      keep: args.keep,
      env,
      onProgress: (line) => io.stderr.write(`[demo] ${line}\n`),
    });
    io.stdout.write(args.json ? `${JSON.stringify(result, null, 2)}\n` : `${renderDemo(result)}\n`);
    return 0;
  },
});
