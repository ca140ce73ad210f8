import opencode1 from "./opencode-1/server/index.js";
import { setup } from "./opencode-2/server/index.js";

// The package's plug-in, one default export for both hosts: OpenCode 1.18 calls `server`
// (hosts/opencode-1), OpenCode 2 calls `setup` (hosts/opencode-2). Each host ignores the other's key.
const plugin = { id: "opencode-rcm", server: opencode1.server, setup };
export default plugin;
