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

/** Runs `fn` when the page is idle, or after `timeoutMs` at the latest, so long work never holds a paint. */
export function whenIdle(fn: () => void, timeoutMs = 60): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: timeoutMs });
  else setTimeout(fn, 0);
}

/**
 * Draws a long list into a container without holding the page: `push(items, atOnce)` draws the first
 * `atOnce` now, in one insertion, and the rest in slices of `slice` when the page is idle. `flush()` draws
 * all that wait (before something needs every row: a highlight); `clear()` empties the list. A list whose
 * container has left the page stops drawing. `onDrawn` is told each time nothing waits any more.
 */
export class BatchedList<T> {
  private waiting: T[] = [];
  private scheduled = false;
  onDrawn: () => void = () => undefined;

  constructor(
    private readonly into: HTMLElement,
    private readonly make: (item: T) => Node,
    private readonly slice = 200,
  ) {}

  get pending(): number {
    return this.waiting.length;
  }

  push(items: T[], atOnce = 0): void {
    if (this.waiting.length === 0 && atOnce > 0) {
      this.draw(items.slice(0, atOnce));
      items = items.slice(atOnce);
    }
    this.waiting.push(...items);
    if (this.waiting.length === 0) this.onDrawn();
    else this.schedule();
  }

  flush(): void {
    if (this.waiting.length > 0) this.draw(this.waiting.splice(0));
  }

  clear(): void {
    this.waiting = [];
    this.into.replaceChildren();
  }

  private draw(items: T[]): void {
    const fragment = document.createDocumentFragment();
    for (const item of items) fragment.append(this.make(item));
    this.into.append(fragment);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    whenIdle(() => {
      this.scheduled = false;
      if (!this.into.isConnected) return; // the page moved on
      this.draw(this.waiting.splice(0, this.slice));
      if (this.waiting.length > 0) this.schedule();
      else this.onDrawn();
    });
  }
}
