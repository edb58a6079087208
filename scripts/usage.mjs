// usage.mjs - a Node script's --help: the comment it opens with (what it
// does, how it is run), printed when the command line asks for it.
//   import { answerHelp } from './usage.mjs';
//   answerHelp(import.meta.url);   // first thing: exits 0 on -h/--help
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** When argv holds -h or --help, print the script's opening comment and exit 0.
 * @param {string} url the script's import.meta.url
 * @param {string[]} [argv] */
export function answerHelp(url, argv = process.argv.slice(2)) {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  const lines = readFileSync(fileURLToPath(url), 'utf8').split('\n');
  const comment = [];
  for (const line of lines[0].startsWith('#!') ? lines.slice(1) : lines) {
    if (!line.startsWith('//')) break;
    comment.push(line.replace(/^\/\/ ?/, ''));
  }
  process.stdout.write(`${comment.join('\n')}\n`);
  process.exit(0);
}
