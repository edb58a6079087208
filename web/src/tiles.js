// tiles.js - the map drawn with NetHack's own 16x16 tiles on a canvas.
//
// The atlas (tiles.png + tiles.json) is converted from the tarball's
// win/share tile sources at build time (scripts/build-tiles.mjs). Each
// square's tile is chosen only from what the window port was shown, as the
// snapshot rows carry it: the displayed kind and mark, the remembered
// feature, and the appearance of a shown creature. A square whose shown
// glyph does not name one tile (an object of a class, a trap, a warning) is
// drawn as its mark in its colour, never as a guess. Nothing here turns game
// text into markup: marks go through the canvas's fillText.
const COLUMNS = 80;
const ROWS = 21;
let urls = { image: 'tiles/tiles.png', index: 'tiles/tiles.json' };
let loading = null;

/** Where the atlas is (the page passes its versioned URLs). */
export function configureTiles(where) {
  urls = where;
  loading = null;
}

function loadAtlas() {
  if (!loading) {
    loading = Promise.all([
      fetch(urls.index).then((response) => {
        if (!response.ok) throw new Error(`tiles index: HTTP ${response.status}`);
        return response.json();
      }),
      new Promise((resolve, reject) => {
        const image = new Image();
        image.onload = () => resolve(image);
        image.onerror = () => reject(new Error('tiles image did not load'));
        image.src = urls.image;
      }),
    ]).then(([index, image]) => ({ index, image }));
    loading.catch(() => { loading = null; });
  }
  return loading;
}

// Remembered-feature codes (rows-v1 `features`) → other.txt tile names.
const FEATURES = {
  d: 'no door', V: 'vertical open door', H: 'horizontal open door', v: 'vertical closed door',
  h: 'horizontal closed door', B: 'iron bars', T: 'tree', '.': 'floor of a room', ':': 'dark part of a room',
  '#': 'corridor', '<': 'staircase up', '>': 'staircase down', l: 'ladder up', L: 'ladder down', _: 'altar',
  g: 'grave', '\\': 'throne', s: 'sink', '{': 'fountain', '~': 'pool', i: 'ice', x: 'molten lava',
  '=': 'vertical open drawbridge', r: 'vertical closed drawbridge', a: 'air', k: 'cloud', w: 'water',
};
// Objects whose mark names exactly one thing.
const OBJECT_MARKS = { $: 'gold piece', 0: 'heavy iron ball', _: 'iron chain' };
// The colours of the rows' colour digits (styles.css .c0-.cf).
const COLOURS = ['#7986cb', '#e53935', '#43a047', '#a1887f', '#5c85f0', '#c06fd0', '#26a69a', '#bdbdbd',
                 '#bdbdbd', '#ff9800', '#76ff03', '#ffee58', '#64b5f6', '#f48fb1', '#4dd0e1', '#ffffff'];

/** The hero's tile: the role's own monster (female forms where NetHack has them). */
function heroTile(index, session) {
  const role = String(session.role || '').toLowerCase();
  const female = String(session.gender || '').toLowerCase().startsWith('f');
  const name = female && role === 'caveman' ? 'cavewoman' : female && role === 'priest' ? 'priestess' : role;
  return index.monsters[name];
}

/** The atlas index of the tile for one square, or undefined to draw its mark. */
export function tileFor(index, { kind, mark, feature, appearance, hero, session }) {
  if (hero && mark === '@') return heroTile(index, session);
  switch (kind) {
    case 'M': case 'P': case 'D': case 'R':
      return appearance ? index.monsters[appearance] : undefined;
    case 'I': return index.monsters['invisible monster'];
    case 'B': return index.objects.boulder;
    case 'S': return index.objects.statue;
    case 'O': return OBJECT_MARKS[mark] ? index.objects[OBJECT_MARKS[mark]] : undefined;
    case 'T':
      if (feature === 'W') return index.other[mark === '|' ? 'vertical wall' : 'horizontal wall'];
      return FEATURES[feature] ? index.other[FEATURES[feature]] : undefined;
    default: return undefined;
  }
}

// NetHack's floor tiles are near-black with sparse dots: on a screen a lit
// room then looks empty. Their squares get a lift, so rooms read as rooms.
const LIT_FLOORS = new Set(['.', '#']);
function lighten(context, left, top, size) {
  context.save();
  context.globalCompositeOperation = 'lighter';
  context.fillStyle = '#262a30';
  context.fillRect(left, top, size, size);
  context.restore();
}

function draw(canvas, { index, image }, rows, hero, session, creatures) {
  const size = index.size;
  const context = canvas.getContext('2d');
  context.fillStyle = '#000';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.font = `${size - 2}px ui-monospace, monospace`;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  const seen = new Map(creatures.map((c) => [`${c.x},${c.y}`, c.appearance]));
  let drawn = 0;
  for (const row of rows) {
    for (let x = 0; x < COLUMNS; x += 1) {
      const mark = row.marks[x] || ' ';
      if (mark === ' ') continue;
      const isHero = Boolean(hero && hero.x === x && hero.y === row.y);
      const tile = tileFor(index, { kind: row.kinds?.[x], mark, feature: row.features?.[x],
                                    appearance: seen.get(`${x},${row.y}`), hero: isHero, session });
      if (tile !== undefined) {
        context.drawImage(image, (tile % index.columns) * size, Math.floor(tile / index.columns) * size, size, size,
                          x * size, row.y * size, size, size);
        if (LIT_FLOORS.has(row.features?.[x]) && row.kinds?.[x] === 'T') lighten(context, x * size, row.y * size, size);
        drawn += 1;
      } else {
        context.fillStyle = COLOURS[parseInt(row.colors[x] || '8', 16)] || COLOURS[8];
        context.fillText(mark, x * size + size / 2, row.y * size + size / 2);
      }
      if (isHero) {
        context.strokeStyle = '#ffffff';
        context.strokeRect(x * size + 0.5, row.y * size + 0.5, size - 1, size - 1);
      }
    }
  }
  canvas.dataset.drawn = String(drawn);
}

/** A canvas drawing the map with tiles (drawn once the atlas has loaded; it
 *  fires `drawn` then). Its CSS size is set by board.js, at an integer scale. */
export function renderTiles(rows, hero, session, creatures) {
  const canvas = document.createElement('canvas');
  canvas.className = 'tiles';
  canvas.width = COLUMNS * 16;
  canvas.height = ROWS * 16;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', 'NetHack map (tiles)');
  canvas.dataset.state = 'loading';
  loadAtlas().then((atlas) => {
    draw(canvas, atlas, rows, hero, session, creatures);
    canvas.dataset.state = 'drawn';
    canvas.dispatchEvent(new Event('drawn'));
  }, (error) => {
    canvas.dataset.state = 'failed';
    canvas.title = String(error.message || error);
  });
  return canvas;
}
