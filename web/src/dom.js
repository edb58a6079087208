// dom.js - building DOM without HTML parsing.
//
// h('div', {className: 'x', dataset: {field: 'turn'}}, 'text', child, …):
// strings become text nodes and `text` sets textContent, so game text and
// labels are never interpreted as markup: nothing here parses HTML.

export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === 'text') element.textContent = String(value);
    else if (key === 'className') element.className = value;
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/** A local date-time with its timezone, e.g. "2026-05-01 14:03:07 GMT+2"; "—" for none. */
export function when(milliseconds) {
  if (!milliseconds) return '—';
  const date = new Date(milliseconds);
  const pad = (n) => String(n).padStart(2, '0');
  const zone = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' })
    .formatToParts(date).find((part) => part.type === 'timeZoneName');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} `
    + `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
    + (zone ? ` ${zone.value}` : '');
}

/** "12 s ago", "3 min ago". */
export function ago(milliseconds, now = Date.now()) {
  if (!milliseconds) return '—';
  const seconds = Math.max(0, Math.round((now - milliseconds) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}
