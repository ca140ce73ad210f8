import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One file at a time unless asked: an e2e file starts real OpenCode servers. `npm run test:unit`
    // runs files in parallel; `npm run test:e2e` two at a time (each file has its own ports, homes
    // and tmux sockets): one at a time they kept one core of two busy 83% of the time.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
