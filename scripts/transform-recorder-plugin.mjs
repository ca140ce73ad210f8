// A test-only OpenCode plug-in for scripts/record-fixtures.mjs: appends the messages that
// `experimental.chat.messages.transform` receives (the history as the model will see it,
// already cut at the newest compaction) to the JSONL file named by RCM_RECORD_TRANSFORMS.
import { appendFileSync } from "node:fs";

export default {
  id: "rcm-transform-recorder",
  server: async () => ({
    "experimental.chat.messages.transform": async (_input, output) => {
      const file = process.env.RCM_RECORD_TRANSFORMS;
      if (file) appendFileSync(file, `${JSON.stringify(output.messages)}\n`);
    },
  }),
};
