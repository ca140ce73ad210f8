/**
 * The few functions the TUI part takes from the host's UI runtime. OpenCode maps these
 * module names to its own instances when it loads a TUI plug-in, so the package depends on
 * neither (and must not bundle them): these declarations only give them types.
 */
declare module "@opentui/solid" {
  /** An intrinsic element: "box", "text", "span", ... */
  export function createElement(tag: string): unknown;
  /** Sets a prop of an element (layout, colours, handlers). */
  export function setProp(node: unknown, name: string, value: unknown): unknown;
  /** Inserts a child: an element, a string, or an accessor re-run when what it reads changes. */
  export function insert(parent: unknown, value: unknown): unknown;
}

declare module "solid-js" {
  export function createSignal<T>(value: T): [() => T, (value: T) => void];
  export function createComponent<P>(component: (props: P) => unknown, props: P): unknown;
  export function onCleanup(fn: () => void): void;
}
