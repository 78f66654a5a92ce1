// Screen-reader mode (P16, in the spirit of lichess's NVUI): with the setting on, the
// game screen has a panel of commands, each one key (and a button): the position by
// rank, by file and by piece, the clocks, the last move and the move list. Each answer
// goes to the aria-live announcer (speech.ts) and stays written in the panel, where a
// screen reader can read it again line by line. The texts are the move box's commands
// (keyboardMove.ts), so /ranks typed there says the same. The puzzle pages give the
// panel commands of their own (puzzles/srpanel.ts).
import { clear, h } from '../dom';
import { t, type Key } from '../i18n';
import { announce } from '../speech';

export interface NvuiCommand { key: string; command: string; label: Key }

// One letter each; f (flip), z (zen), m and / (move box) keep their meaning.
export const NVUI_COMMANDS: NvuiCommand[] = [
  { key: 'r', command: 'ranks', label: 'srCmdRanks' },
  { key: 'v', command: 'files', label: 'srCmdFiles' },
  { key: 'p', command: 'pieces', label: 'srCmdPieces' },
  { key: 'c', command: 'clock', label: 'srCmdClocks' },
  { key: 'l', command: 'lastmove', label: 'srCmdLast' },
  { key: 's', command: 'moves', label: 'srCmdMoves' },
];

export class NvuiPanel {
  readonly el: HTMLElement;
  private readonly output: HTMLElement;

  // `answer`: the words for a command (null when there is nothing to say yet);
  // `commands`: the keys of this page, `help`: the line that introduces them.
  constructor(private answer: (command: string) => string | null,
    private commands: NvuiCommand[] = NVUI_COMMANDS, help: Key = 'srPanelHelp') {
    this.output = h('div.nvui-output', { 'data-nvui': 'output' });
    this.el = h('section.nvui', { 'aria-labelledby': 'nvui-title', hidden: true },
      h('h2', { id: 'nvui-title' }, t('srPanel')),
      h('p.nvui-help', t(help)),
      h('div.nvui-commands', commands.map((c) => h('button.action', {
        type: 'button', 'data-nvui': c.command, 'aria-keyshortcuts': c.key,
        onclick: () => this.run(c.command),
      }, h('kbd', c.key.toUpperCase()), ' ', t(c.label)))),
      this.output);
  }

  show(on: boolean) { this.el.hidden = !on; }

  // A key pressed on the game screen; true when it was a command.
  key(k: string): boolean {
    const c = this.commands.find((x) => x.key === k.toLowerCase());
    if (!c) return false;
    this.run(c.command);
    return true;
  }

  run(command: string) {
    const words = this.answer(command);
    if (words === null) return;
    clear(this.output, words.split(/(?<=\D\.) |; /).map((line) => h('p', line)));
    announce(words);
  }
}
