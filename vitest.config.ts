import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One file at a time unless asked: an e2e file starts real OpenCode servers. `npm run test:unit`,
    // `npm run test:slow` and `npm run test:e2e` run two files at a time (vitest's default is one fewer than the cores:
    // one here); each e2e file has its own ports, homes and tmux sockets, and one at a time they
    // kept one core of two busy 83% of the time.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
