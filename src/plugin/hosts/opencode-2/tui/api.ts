// The slice of OpenCode 2's TUI plug-in API this part uses, declared here: 2.0.x publishes no type
// package. Read off the 2.0.15 binary (its built-in TUI plug-ins use the same calls) and tried
// under tmux; the objects carry more. A later 2.0 build that moves one of these shapes fails
// test/e2e/opencode-2-tui.test.ts, not the compiler.

/** A colour of the theme's tokens (OpenTUI takes it as is). */
export type ThemeColour = unknown;

/** The theme's tokens (`api.theme`): read at draw time, so a theme switch redraws. */
interface ThemeTokens {
  text: {
    base: ThemeColour;
    muted: ThemeColour;
    action: { primary: { base: ThemeColour } };
    feedback: { warning: { base: ThemeColour }; error: { base: ThemeColour } };
  };
}

type ToastVariant = "info" | "success" | "warning" | "error";

export interface SelectOption<Value> {
  title: string;
  value: Value;
  description?: string;
}

/** What the TUI shows: a route is `{ type: "session", sessionID }` on a session's screen. */
type Route = { type: "session"; sessionID: string } | { type: string };

/** Where the TUI works: its folder and project (undefined until the TUI has resolved them). */
export interface TuiLocation {
  directory: string;
  project: { id: string; directory: string };
}

/** A command of a keymap layer; `slash.arguments` makes `/name <words>` run it with the words. */
interface LayerCommand {
  id: string;
  title: string;
  group?: string;
  palette?: boolean;
  slash?: { name: string; arguments?: boolean };
  run(input?: unknown): void;
}

/** A config layer as `client.config.get` returns it: a file with what it says, or a folder. */
export interface ConfigLayer {
  type: string;
  path?: string;
  info?: { plugins?: unknown };
}

/** A stored message as `client.message.list` returns it (user messages carry their text). */
export interface ListedMessage {
  id: string;
  type: string;
  text?: string;
}

/** `setup`'s argument: the parts of OpenCode 2's TUI plug-in API this part uses. */
export interface TuiApi {
  readonly location: TuiLocation | undefined;
  readonly theme: ThemeTokens;
  ui: {
    /** One placement key (`append: "sidebar.content"`, `append: "app"`); `render` gets the slot's input. Returns an unregister. */
    slot(claim: { append: string; render: (input: { sessionID?: string }) => unknown }): () => void;
    toast: { show(toast: { title?: string; message: string; variant?: ToastVariant; duration?: number; sessionID?: string }): void };
    dialog: {
      /** Resolves with the chosen value, or undefined when the dialog is closed. */
      select<Value>(input: { title: string; options: SelectOption<Value>[]; placeholder?: string }): Promise<Value | undefined>;
      alert(input: { title: string; message: string }): Promise<void>;
      set(input: { size?: "medium" | "large" | "xlarge" }): void;
      clear(): void;
    };
    router: { current(): Route };
  };
  /** What the TUI has synced from the server. */
  data: { session: { get(sessionID: string): { title?: string } | undefined } };
  /** Called inside a component (a slot's render): it needs the keymap's context. */
  keymap: { layer(layer: () => { mode: "global"; commands: LayerCommand[] }): void };
  client: {
    config: { get(input: { location?: { directory: string } }): Promise<ConfigLayer[] | { data: ConfigLayer[] }> };
    session: { command(input: { sessionID: string; name: string; text: string }): Promise<unknown> };
    message: {
      list(input: { sessionID: string; type?: "user"; order?: "asc" | "desc"; limit?: number }): Promise<{ data: ListedMessage[] } | ListedMessage[]>;
    };
  };
}
