// The screen-reader mode (P16) on the training pages (issue 29: #/puzzles, #/learn):
// the game screen's panel (round/nvui.ts), one key each (and a button), anywhere on
// the page but in the move box: the position by rank, by file and by piece (the same
// words as the game screen's), the opponent's last move, what is asked, the hint, the
// result, the next puzzle. Each answer goes to the live region and stays in the panel.
import { positionByFile, positionByPiece, positionByRank } from '../round/keyboardMove';
import { NvuiPanel, type NvuiCommand } from '../round/nvui';
import { t, type Key } from '../i18n';
import { onSettings, settings } from '../settings';
import type { Side, TrainerBoard } from './trainer';

// What the page answers itself; null when it acted and announces on its own.
export interface TrainingAnswers {
  task(): string;
  hint(): string | null;
  result(): string;
  next(): string | null;
}

const commands = (hint: Key, next: Key): NvuiCommand[] => [
  { key: 'r', command: 'ranks', label: 'srCmdRanks' },
  { key: 'v', command: 'files', label: 'srCmdFiles' },
  { key: 'p', command: 'pieces', label: 'srCmdPieces' },
  { key: 'l', command: 'lastmove', label: 'trCmdLast' },
  { key: 't', command: 'task', label: 'trCmdTask' },
  { key: 'h', command: 'hint', label: hint },
  { key: 's', command: 'result', label: 'trCmdResult' },
  { key: 'n', command: 'next', label: next },
];

export class TrainingPanel {
  readonly panel: NvuiPanel;
  private readonly offSettings: () => void;

  // `solver`: the side the player moves (the other one is the opponent).
  constructor(private trainer: TrainerBoard, private solver: () => Side | null, private answers: TrainingAnswers,
    labels: { hint: Key; next: Key }) {
    this.panel = new NvuiPanel((c) => this.answer(c), commands(labels.hint, labels.next), 'trSrHelp');
    this.panel.show(settings.screenReader);
    this.offSettings = onSettings(() => this.panel.show(settings.screenReader));
    document.addEventListener('keydown', this.onKey);
  }

  get el(): HTMLElement { return this.panel.el; }

  private answer(command: string): string | null {
    const fen = this.trainer.fen();
    const side = this.trainer.orientation;
    switch (command) {
      case 'ranks': return positionByRank(fen, side);
      case 'files': return positionByFile(fen, side);
      case 'pieces': return positionByPiece(fen);
      case 'lastmove': {
        const me = this.solver();
        return (me && this.trainer.lastMoveOf(me === 'white' ? 'black' : 'white')) ?? t('noMoves');
      }
      case 'task': return this.answers.task();
      case 'hint': return this.answers.hint();
      case 'result': return this.answers.result();
      case 'next': return this.answers.next();
      default: return null;
    }
  }

  // As the game screen's keys: not in a text field or a list, not with a modifier, not
  // a key the keyboard board or the promotion chooser took, not under an open dialog.
  private onKey = (e: KeyboardEvent) => {
    const tgt = e.target;
    if (!settings.screenReader) return;
    if (tgt instanceof HTMLInputElement || tgt instanceof HTMLTextAreaElement || tgt instanceof HTMLSelectElement) return;
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (document.querySelector('dialog[open]')) return;
    if (this.panel.key(e.key)) e.preventDefault();
  };

  destroy() {
    this.offSettings();
    document.removeEventListener('keydown', this.onKey);
  }
}
