// OpenCode 2 loads a plug-in directory's server.js (package.json's main and exports are not read
// for a directory): this lets `{ "package": "/path/to/opencode-rcm" }` load the built plug-in.
export { default } from "./dist/plugin/hosts/plugin.js";
