export const MAX_DEPTH = 4;
export const MAX_ITEMS = 50;

/** Focuses an element once it is in the page (what `autofocus` does, after hydration too). */
export function focusOnMount(node: HTMLElement): void {
  node.focus();
}
