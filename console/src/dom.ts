// A tiny DOM helper: every string child becomes a text node, so a value from the graph is never parsed
// as HTML. There is deliberately no way to set innerHTML through it.
export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, string | boolean | undefined | ((e: Event) => void)>;

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, v);
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

export function mount(root: HTMLElement, ...children: Child[]): void {
  root.replaceChildren();
  append(root, children);
}

/** A graph value as display text: strings as they are, everything else as JSON. */
export function show(v: unknown): string {
  if (v === null || v === undefined) return '∅';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
