import { z } from "zod";
import { OptionsSchema } from "../../plugin/config/options-schema.js";

/**
 * The JSON schema of an rcm.jsonc file, generated from the options' zod schema (the one
 * source of truth) and published as `rcm.schema.json`. Rules across keys are not
 * expressible in it; the plug-in checks those at start-up.
 */
function optionsJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(OptionsSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const properties = generated.properties as Record<string, unknown>;
  return {
    ...generated,
    title: "opencode-rcm options (rcm.jsonc)",
    description:
      'Options of the opencode-rcm plug-in for OpenCode: ~/.config/opencode/rcm.jsonc, .opencode/rcm.jsonc, or the ["opencode-rcm", { ... }] tuple in opencode.json.',
    // No $id: the schema is read from the installed package ("$schema": "../node_modules/opencode-rcm/rcm.schema.json").
    properties: { $schema: { type: "string", description: "Where this schema is, for editors: a path into the installed package." }, ...properties },
  };
}

/** The schema as the file holds it: stable key order, two-space indent, final newline. */
export function renderJsonSchema(): string {
  return `${JSON.stringify(optionsJsonSchema(), null, 2)}\n`;
}
