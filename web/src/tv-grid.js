// tv-grid.js - the TV's grid of live games, whatever feeds it: each game a
// card with a small live board, its name, role, Dlvl, HP and turn, linked
// to its page. The page's TV (tv.js: this browser's games, from IndexedDB)
// and the native server's (server/tv.js: the server's games, over HTTP)
// hand it the games and their latest snapshots; a card is redrawn only when
// its game moved. All game text is set as text (dom.js).
import { h, replace } from './dom.js';
import { renderMap } from './map.js';

function card(game, snapshot, href) {
  const observation = snapshot?.observation || {};
  const v = observation.vitals || {};
  const name = snapshot?.session?.name || game.name || '(unnamed)';
  const role = snapshot?.session?.role || game.role || '';
  const depth = observation.depth ?? game.depth;
  const hp = v.hp !== undefined ? `HP ${v.hp}/${v.hpMax}` : 'HP ?';
  const facts = [role, `Dlvl ${depth ?? '?'}`, hp, `T:${observation.turn ?? game.turn ?? '?'}`].filter(Boolean).join(' · ');
  return h('li', { className: 'tv-card panel', dataset: { gameId: game.gameId, revision: String(snapshot?.revision ?? '') } },
    h('a', { href: href(game.gameId), className: 'tv-link' }, // its name is its text (name, facts)
      h('div', { className: 'tv-board', 'aria-hidden': 'true' },
        snapshot?.map ? renderMap(snapshot.map.rows, observation.position) : h('p', { className: 'muted', text: 'no board yet' })),
      h('div', { className: 'tv-facts' }, h('strong', { className: 'name', dataset: { field: 'tv-name' }, text: name }),
        ' ', h('span', { dataset: { field: 'tv-facts' }, text: facts }))));
}

export class TvGrid {
  /** Draw the TV's frame into `root`: a link `home`, the title, `emptyText`
   *  while no game is live; `href(gameId)` is a game's page.
   * @param {HTMLElement} root
   * @param {{home: string, href: (gameId: string) => string, emptyText: string, title?: string}} options */
  constructor(root, { home, href, emptyText, title = 'TV: every live game' }) {
    this.root = root;
    this.href = href;
    /** @type {Map<string, {key: string, element: HTMLElement}>} */
    this.cards = new Map();
    this.grid = h('ul', { className: 'tv-grid', dataset: { list: 'tv' } });
    this.empty = h('p', { className: 'muted', dataset: { field: 'tv-empty' }, text: emptyText });
    replace(root, h('a', { className: 'back', href: home, text: '← all games' }),
      h('h2', { className: 'tv-title', text: title }), this.empty, this.grid);
    root.dataset.gameId = '';
  }

  /** Show exactly these games, in this order: [{game, snapshot}] (snapshot null until one is known). */
  show(entries) {
    const shown = new Set();
    entries.forEach(({ game, snapshot }, index) => {
      const key = `${snapshot?.revision}/${game.revision}/${game.depth}`;
      shown.add(game.gameId);
      const drawn = this.cards.get(game.gameId);
      let element;
      if (drawn && drawn.key === key) {
        element = drawn.element;
      } else {
        element = card(game, snapshot, this.href);
        if (drawn) drawn.element.replaceWith(element);
        this.cards.set(game.gameId, { key, element });
      }
      // in order; an unchanged card in its place is not moved (moving it would drop the focus inside it)
      const here = this.grid.children[index];
      if (here !== element) this.grid.insertBefore(element, here || null);
    });
    for (const [gameId, drawn] of this.cards) {
      if (!shown.has(gameId)) {
        drawn.element.remove();
        this.cards.delete(gameId);
      }
    }
    this.empty.hidden = entries.length > 0;
    this.root.dataset.live = String(entries.length);
  }
}
