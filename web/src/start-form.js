// start-form.js - start a game from the page: name, role, race, gender,
// alignment (each "random" by default), seed (random when empty) and the
// harness/model labels. The choices come from the session tool's own
// declaration (exported from Python at build time), and the game is created
// by calling that tool the way an agent would, so it is then a game like
// any other: the in-page agent can play it through WebMCP and the
// autopilot can take it on (the checkbox hands it over at once).
import { h, replace } from './dom.js';
import { declarations } from '../../webmcp/declarations.js';

const CHOICES = ['role', 'race', 'gender', 'alignment'];

function createFields() {
  const session = declarations.find((tool) => tool.name === 'session');
  return session.inputSchema.properties;
}

function select(name, options) {
  const id = `start-${name}`;
  return h('label', { for: id }, `${name[0].toUpperCase()}${name.slice(1)} `,
    h('select', { id, name, dataset: { control: `start-${name}` } },
      h('option', { value: '', text: 'random' }),
      options.map((value) => h('option', { value, text: value }))));
}

function input(name, label, props) {
  const id = `start-${name}`;
  return h('label', { for: id }, `${label} `, h('input', { id, name, dataset: { control: `start-${name}` }, ...props }));
}

/** The form; `create(args)` calls the session tool and resolves with its frame;
 *  `playWithAutopilot(gameId)` hands the new game to the autopilot. */
export function startForm({ create, playWithAutopilot }) {
  const fields = createFields();
  const result = h('p', { className: 'muted', dataset: { field: 'start-result' }, 'aria-live': 'polite' });
  const autopilot = h('input', { type: 'checkbox', name: 'autopilot', dataset: { control: 'start-autopilot' } });
  const form = h('form', { className: 'start-form', dataset: { form: 'start' } },
    input('name', 'Name', { type: 'text', maxlength: String(fields.name.maxLength), placeholder: 'random',
                            autocomplete: 'off' }),
    CHOICES.map((name) => select(name, fields[name].enum)),
    input('seed', 'Seed', { type: 'number', min: String(fields.seed.minimum), max: String(fields.seed.maximum),
                            placeholder: 'random', inputmode: 'numeric' }),
    input('harness_name', 'Harness label', { type: 'text', maxlength: String(fields.harness_name.maxLength),
                                             value: 'a person (start form)' }),
    input('model_name', 'Model label', { type: 'text', maxlength: String(fields.model_name.maxLength) }),
    h('label', {}, autopilot, ' let the autopilot play it'),
    h('button', { type: 'submit', dataset: { control: 'start-game' }, text: 'Start the game' }),
    result);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const args = { action: 'create' };
    for (const name of ['name', ...CHOICES, 'harness_name', 'model_name']) {
      const value = String(data.get(name) || '').trim();
      if (value) args[name] = value;
    }
    const seed = String(data.get('seed') || '').trim();
    if (seed) args.seed = Number(seed);
    result.dataset.state = 'starting';
    result.textContent = 'Starting…';
    let frame;
    try {
      frame = await create(args);
    } catch (error) {
      frame = { error: { code: 'failed', message: String(error && error.message ? error.message : error) } };
    }
    if (frame.error) {
      result.dataset.state = 'refused';
      result.dataset.code = frame.error.code;
      replace(result, h('strong', { text: `Not started (${frame.error.code}): ` }), h('span', { text: frame.error.message }));
      return;
    }
    const gameId = frame.basis.sessionId;
    result.dataset.state = 'started';
    result.dataset.gameId = gameId;
    if (autopilot.checked) playWithAutopilot(gameId);
    location.hash = `#/g/${encodeURIComponent(gameId)}`;
  });
  return form;
}
