// A tiny element builder: h('button.primary', {onclick}, 'Play').
type Attrs = Record<string, unknown>;
type Child = Node | string | number | null | undefined | false | Child[];

export function h<K extends keyof HTMLElementTagNameMap>(sel: K | string, attrs?: Attrs | Child, ...children: Child[]): HTMLElement {
  const [tag, ...classes] = sel.split('.');
  const el = document.createElement(tag || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs as Child);
  } else if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') Reflect.set(el, k, v);
      else if (k === 'class') el.className += (el.className ? ' ' : '') + v;
      else if (k === 'value') Reflect.set(el, 'value', String(v));
      else if (k in el && typeof v !== 'string') Reflect.set(el, k, v); // properties: checked, readOnly …
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el: HTMLElement, children: Child[]) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

export function clear(el: HTMLElement, ...children: Child[]) {
  el.replaceChildren();
  append(el, children);
}

let toastTimer = 0;
// A transient message (server errors and notices).
export function toast(text: string, kind: 'error' | 'info' = 'error') {
  let el = document.getElementById('toast');
  if (!el) {
    el = h('div', { id: 'toast', role: 'alert' });
    document.body.append(el);
  }
  el.textContent = text;
  el.className = `toast show ${kind}`;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => el!.classList.remove('show'), 4000);
}

// Redraws `root` and gives the focus back to the element that stands where the focused
// one stood (the same field or action in the same row): a list redrawn from the server's
// update must not throw a keyboard user back to the top of the page.
const OWN = ['data-field', 'data-action', 'data-quick', 'data-watch', 'data-setting'];
const ROWS = ['data-seek', 'data-board', 'data-round', 'data-player'];
export function redrawKeepingFocus(root: HTMLElement, draw: () => void) {
  const f = document.activeElement;
  let where = '';
  if (f instanceof HTMLElement && root.contains(f)) {
    const own = OWN.find((a) => f.hasAttribute(a));
    if (own) {
      where = `[${own}="${CSS.escape(f.getAttribute(own) ?? '')}"]`;
      for (const r of ROWS) {
        const row = f.parentElement?.closest(`[${r}]`);
        if (row && root.contains(row)) where = `[${r}="${CSS.escape(row.getAttribute(r) ?? '')}"] ${where}`;
      }
    }
  }
  draw();
  if (where && (!document.activeElement || document.activeElement === document.body || !root.contains(document.activeElement)))
    root.querySelector<HTMLElement>(where)?.focus();
}
