import opencode1 from "./opencode-1/tui/index.js";
import { setup } from "./opencode-2/tui/index.js";

// The package's TUI part, one default export for both hosts (the package's `./tui`, a folder's
// tui.js): OpenCode 1.18 calls `tui` (hosts/opencode-1/tui), OpenCode 2 calls `setup`
// (hosts/opencode-2/tui). Each host ignores the other's key.
const plugin = { id: "opencode-rcm", tui: opencode1.tui, setup };
export default plugin;
