// OpenCode 2 loads a plug-in directory's tui.js for its TUI part (package.json's exports are not
// read for a directory): with server.js, `{ "package": "/path/to/opencode-rcm" }` loads both parts.
export { default } from "./dist/plugin/hosts/tui.js";
