// board.js - the map's viewport: zoom, pan and following the hero.
//
// The game view is redrawn from nothing on every revision (game-view.js),
// so what a person chose about the view (zoom, whether it follows the @,
// where they panned to) lives here, one record per view root, and is
// applied to each new map box once it is in the document.
//
// Tiles are drawn only at integer scales (16 or 32 CSS px per tile, with
// image-rendering: pixelated): a scale that is not a whole number blurs
// NetHack's 16x16 tiles. ASCII is never smaller than 12 px: when 80
// columns do not fit (a phone), the box scrolls and follows the hero.
//
// Zoom: the buttons, + and - on the focused map, Ctrl+wheel (a trackpad's
// pinch arrives as one) and a two-finger pinch. Pan: dragging, the wheel,
// touch scrolling or the arrow keys; any pan stops the following until
// "Follow @" is pressed again (or F).

/** Tile sizes in CSS px (integer scales of the 16 px atlas). */
export const TILE_SIZES = [16, 32];
/** ASCII font sizes in CSS px a person can zoom to (null: fit the box, at least 12 px). */
export const FONT_SIZES = [12, 14, 16, 20, 24];

/** @typedef {{tile: number, font: number | null, follow: boolean, left: number, top: number}} BoardState */
/** @type {WeakMap<HTMLElement, BoardState>} */
const states = new WeakMap();

/** The board state of a view root (created on first use). */
export function boardState(root) {
  let state = states.get(root);
  if (!state) {
    state = { tile: 16, font: null, follow: true, left: 0, top: 0 };
    states.set(root, state);
  }
  return state;
}

/** One zoom step in or out (`direction` +1 | -1) for the mode on show. */
export function zoom(state, mode, direction) {
  if (mode === 'tiles') {
    const at = TILE_SIZES.indexOf(state.tile);
    state.tile = TILE_SIZES[Math.max(0, Math.min(TILE_SIZES.length - 1, at + direction))];
    return;
  }
  const current = state.font ?? FONT_SIZES[0];
  let at = FONT_SIZES.findIndex((size) => size >= current);
  if (at < 0) at = FONT_SIZES.length - 1;
  state.font = FONT_SIZES[Math.max(0, Math.min(FONT_SIZES.length - 1, at + direction))];
}

/** Size the drawn map (tiles: CSS size of the canvas; ASCII: its font). */
function applyZoom(box, state) {
  const canvas = box.querySelector('canvas.tiles');
  if (canvas instanceof HTMLCanvasElement) {
    const scale = state.tile / 16;
    canvas.style.width = `${canvas.width * scale}px`;
    canvas.style.height = `${canvas.height * scale}px`;
    box.dataset.tile = String(state.tile);
  }
  const pre = box.querySelector('pre.map');
  if (pre instanceof HTMLElement) {
    if (state.font) pre.style.fontSize = `${state.font}px`;
    else pre.style.removeProperty('font-size');
  }
}

/** Scroll the box so the hero is in the middle (as far as the map allows). */
function centreHero(box, hero, state) {
  if (!hero) return;
  let x;
  let y;
  const canvas = box.querySelector('canvas.tiles');
  if (canvas) {
    x = (hero.x + 0.5) * state.tile;
    y = (hero.y + 0.5) * state.tile;
  } else {
    const cell = box.querySelector('pre.map .hero');
    if (!(cell instanceof HTMLElement)) return;
    const outer = box.getBoundingClientRect();
    const inner = cell.getBoundingClientRect();
    x = inner.left - outer.left + box.scrollLeft + inner.width / 2;
    y = inner.top - outer.top + box.scrollTop + inner.height / 2;
  }
  box.scrollLeft = Math.max(0, x - box.clientWidth / 2);
  box.scrollTop = Math.max(0, y - box.clientHeight / 2);
}

/** Place the view of the map box in `root`: zoom, then follow or restore the
 *  pan; and wire its zoom, pan and follow controls. `hero` = {x, y}. */
export function placeBoard(root, hero) {
  const box = root.querySelector('.map-box');
  if (!(box instanceof HTMLElement)) return;
  const state = boardState(root);
  const mode = box.dataset.mode || 'ascii';
  applyZoom(box, state);
  const place = () => {
    if (state.follow) centreHero(box, hero, state);
    else {
      box.scrollLeft = state.left;
      box.scrollTop = state.top;
    }
    state.left = box.scrollLeft;
    state.top = box.scrollTop;
  };
  place();
  // a resized box (a turned phone, a resized window) keeps the hero in view
  if (typeof ResizeObserver === 'function') {
    let width = box.clientWidth;
    new ResizeObserver(() => {
      if (box.clientWidth === width || !box.isConnected) return;
      width = box.clientWidth;
      if (state.follow) place();
    }).observe(box);
  }
  // tiles are drawn once the atlas loads; the canvas has its size already, but place again then
  box.querySelector('canvas.tiles')?.addEventListener('drawn', place, { once: true });
  const panel = box.closest('.map-panel');
  const followButton = panel?.querySelector('[data-control=map-follow]');
  const follow = (on) => {
    state.follow = on;
    followButton?.setAttribute('aria-pressed', String(on));
    if (on) place();
  };
  followButton?.setAttribute('aria-pressed', String(state.follow));
  followButton?.addEventListener('click', () => follow(!state.follow));
  // zooming keeps this box (a pinch in progress keeps its touch target): size it and place it again
  const step = (direction) => {
    zoom(state, mode, direction);
    applyZoom(box, state);
    place();
  };
  panel?.querySelector('[data-control=map-zoom-in]')?.addEventListener('click', () => step(1));
  panel?.querySelector('[data-control=map-zoom-out]')?.addEventListener('click', () => step(-1));
  wire(box, state, step, () => { if (state.follow) follow(false); }, () => follow(true));
}

function wire(box, state, step, panned, followAgain) {
  box.addEventListener('scroll', () => { state.left = box.scrollLeft; state.top = box.scrollTop; });
  box.addEventListener('wheel', (event) => {
    if (event.ctrlKey) { // a trackpad pinch, or Ctrl + the wheel
      event.preventDefault();
      step(event.deltaY < 0 ? 1 : -1);
    } else panned();
  }, { passive: false });
  box.addEventListener('keydown', (event) => {
    if (event.key === '+' || event.key === '=') { step(1); event.preventDefault(); }
    else if (event.key === '-') { step(-1); event.preventDefault(); }
    else if (event.key === 'f' || event.key === 'F') { followAgain(); event.preventDefault(); }
    else if (event.key.startsWith('Arrow') || event.key === 'PageUp' || event.key === 'PageDown') panned();
  });
  // a mouse drag pans (touch scrolls natively)
  let drag = null;
  box.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'mouse' || event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, left: box.scrollLeft, top: box.scrollTop };
  });
  box.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) < 4) return;
    panned();
    box.scrollLeft = drag.left - dx;
    box.scrollTop = drag.top - dy;
  });
  const drop = () => { drag = null; };
  box.addEventListener('pointerup', drop);
  box.addEventListener('pointercancel', drop);
  box.addEventListener('pointerleave', drop);
  // a two-finger pinch zooms one step per 1.4x change of the fingers' distance
  let pinch = null;
  const spread = (touches) => Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
  box.addEventListener('touchstart', (event) => {
    pinch = event.touches.length === 2 ? spread(event.touches) : null;
  }, { passive: true });
  box.addEventListener('touchmove', (event) => {
    if (event.touches.length === 1) panned();
    if (event.touches.length !== 2 || !pinch) return;
    event.preventDefault();
    const ratio = spread(event.touches) / pinch;
    if (ratio > 1.4 || ratio < 1 / 1.4) {
      pinch = spread(event.touches);
      step(ratio > 1 ? 1 : -1);
    }
  }, { passive: false });
}
