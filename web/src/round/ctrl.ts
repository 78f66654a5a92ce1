// The game screen's controller (P5-P10, P12, P14, P16), after lichess's ui/round:
// it holds the last state the server sent and what the player is doing with it
// (reviewing, a pending resign, premoves), turns board gestures and typed text into
// protocol messages, and asks the view to redraw. The board may run ahead by one
// move (the one just made) until the server answers.
import { AnalysisPanel } from '../analysis/panel';
import { Board, type BoardMove } from '../board';
import { moveUci, piecesOf } from '../castling';
import { Clocks } from '../clockview';
import { KeyboardBoard } from '../keyboardboard';
import { toast } from '../dom';
import { t, endText, errorText } from '../i18n';
import { toggleZen } from '../layout';
import { displaySan, startOf } from '../notation';
import { settings, onSettings, setSetting } from '../settings';
import { play, soundForSan } from '../sound';
import { announce, describeMove } from '../speech';
import { saveSeat } from '../store';
import type { Claim, ClientMessage, Color, GameState, MoveText } from '../types';
import { commandText, readTyped } from './keyboardMove';
import { PremoveQueue } from './premove';
import { Promotion, isLastRank } from './promotion';
import { GameSocket } from './socket';
import { RoundView } from './view';

export const opposite = (c: Color): Color => (c === 'white' ? 'black' : 'white');

export class RoundCtrl {
  state: GameState | null = null;
  viewPly: number | null = null; // null: following the game live
  orientation: Color = 'white';
  confirmingResign = false;
  claimWithMove: Claim | '' = '';
  readonly board: Board;
  readonly clocks: Clocks;
  readonly analysis: AnalysisPanel;
  private readonly view: RoundView;
  private readonly socket: GameSocket;
  private readonly premoves: PremoveQueue;
  private readonly promotion: Promotion;
  private readonly keyboardBoard: KeyboardBoard;
  private orientationSet = false;
  private halfRtt = 0;
  private readonly offSettings: () => void;

  constructor(mount: HTMLElement, readonly gameId: string, seat: string | null, private readonly autoAnalyse = false) {
    this.analysis = new AnalysisPanel({
      gameId,
      shownPly: () => this.viewPly ?? this.state?.ply ?? 0,
      goto: (ply) => this.goto(ply),
      moveText: (ply) => displaySan(this.state?.san[ply - 1] ?? '', this.sideOfPly(ply - 1) === 'white'),
      redraw: () => this.redraw(),
    });
    this.view = new RoundView(this, mount);
    this.board = new Board(this.view.el.board, { viewOnly: false, movable: { color: undefined } });
    this.board.onMove = (m) => this.userMove(m);
    this.board.onPremove = (m) => { if (settings.premoveQueue) { this.premoves.push(m); this.redraw(); } };
    this.promotion = new Promotion(this.view.el.board);
    this.keyboardBoard = new KeyboardBoard(this.view.el.board, this.board);
    this.premoves = new PremoveQueue(this.board, () => this.state?.variant ?? 'standard');
    this.clocks = new Clocks({ white: this.view.el.clockWhite, black: this.view.el.clockBlack });
    this.clocks.onLow = (c) => { if (this.isMine(c)) play('lowtime'); };
    this.socket = new GameSocket(gameId, seat, {
      state: (s) => this.onState(s),
      error: (code, message) => { toast(errorText(code, message)); this.redraw(); }, // undo what the board ran ahead with
      status: (st) => this.view.setConn(st, this.state !== null),
      lag: (rtt) => { this.halfRtt = rtt / 2; },
    });
    document.addEventListener('keydown', this.onKey);
    this.view.el.board.addEventListener('contextmenu', (e) => { if (this.premoves.length) { e.preventDefault(); this.clearPremoves(); } });
    this.offSettings = onSettings(this.redraw);
    window.addEventListener('online', this.kick);
    document.addEventListener('visibilitychange', this.kick);
  }

  private kick = () => { if (document.visibilityState === 'visible') this.socket.kick(); };

  destroy() {
    this.analysis.destroy();
    this.offSettings();
    this.socket.close();
    this.clocks.destroy();
    this.promotion.cancel();
    this.keyboardBoard.destroy();
    this.board.destroy();
    document.removeEventListener('keydown', this.onKey);
    window.removeEventListener('online', this.kick);
    document.removeEventListener('visibilitychange', this.kick);
  }

  redraw = () => { if (this.state) this.view.render(this.state); };

  // ---- what the state says ------------------------------------------------

  isMine(c: Color): boolean {
    const you = this.state?.you;
    return you === 'both' || you === c;
  }

  myTurn(): boolean {
    const s = this.state;
    return !!s && s.status === 'ongoing' && this.isMine(s.turn);
  }

  // The side this screen acts for: the seat's colour, or in a same-device game the
  // side to move (the server acts for it: an offer made now is that side's).
  actingSide(): Color | null {
    const s = this.state;
    if (!s || s.you === 'spectator') return null;
    return s.you === 'both' ? s.turn : s.you;
  }

  sideOfPly(i: number): Color {
    const { blackFirst } = startOf(this.state?.initial_fen ?? '');
    return (i % 2 === 0) !== blackFirst ? 'white' : 'black';
  }

  private onState(s: GameState) {
    const prev = this.state;
    this.state = s;
    if (!this.orientationSet || (prev && prev.you !== s.you)) {
      this.orientation = s.you === 'black' ? 'black' : 'white';
      this.orientationSet = true;
    }
    if (s.you === 'both' && settings.autoFlip && s.status === 'ongoing') this.orientation = s.turn;
    const sameGame = prev !== null && prev.id === s.id;
    if (sameGame && s.ply < prev.ply && this.viewPly !== null && this.viewPly > s.ply) this.viewPly = null;
    if (sameGame && s.ply > prev.ply && s.san.length) {
      const i = s.san.length - 1;
      play(soundForSan(s.san[i]));
      announce(describeMove(s.moves[i], s.san[i], this.sideOfPly(i) === 'white'));
    }
    if (prev && prev.status === 'ongoing' && s.status !== 'ongoing') {
      play('end');
      announce(endText(s));
      this.premoves.clear();
      this.promotion.cancel();
    }
    if (s.rematch?.game && s.rematch.seat && s.you !== 'spectator' && s.rematch.game !== s.id) {
      saveSeat({ game: s.rematch.game, token: s.rematch.seat, color: s.you === 'both' ? 'both' : opposite(s.you), created: Date.now() });
      location.hash = `#/game/${s.rematch.game}?seat=${encodeURIComponent(s.rematch.seat)}`;
      return;
    }
    if (s.status !== 'ongoing') this.confirmingResign = false;
    this.clocks.sync(s.clock, this.halfRtt);
    this.view.render(s);
    if (s.status !== 'ongoing') this.analysis.gameOver(this.autoAnalyse);
    this.playPremove();
  }

  // ---- actions ------------------------------------------------------------

  send(msg: ClientMessage) {
    if (!this.socket.send(msg)) toast(t('notConnected'));
  }

  resign() {
    if (settings.confirmResign) { this.confirmingResign = true; this.redraw(); return; }
    this.send({ t: 'resign' });
  }

  confirmResign(yes: boolean) {
    this.confirmingResign = false;
    if (yes) this.send({ t: 'resign' }); else this.redraw();
  }

  setClaimWithMove(c: Claim | '') { this.claimWithMove = c; }

  // A move from the board: castling in the server's form, promotion by the chooser.
  private userMove(m: BoardMove) {
    const s = this.state;
    if (!s) return;
    const before = piecesOf(s.fen);
    const piece = before.get(m.from);
    if (piece?.role === 'pawn' && isLastRank(m.to)) {
      void this.promotion.choose(m.to, piece.color, this.orientation).then((p) => {
        if (p) this.sendMove({ uci: moveUci(s.variant, before, m.from, m.to, p) });
        else this.redraw(); // cancelled: back to the server's position
      });
      return;
    }
    this.sendMove({ uci: moveUci(s.variant, before, m.from, m.to) });
  }

  sendMove(move: MoveText) {
    const s = this.state;
    if (!s) return;
    if (this.claimWithMove) {
      const claim = this.claimWithMove;
      this.claimWithMove = '';
      this.send({ t: 'claim', claim, ...move });
      return;
    }
    this.send({ t: 'move', ...move, ply: s.ply });
  }

  // The move box: a command to announce, or a move.
  submitTyped(raw: string) {
    const s = this.state;
    if (!s) return;
    const typed = readTyped(raw, s.fen, s.legal);
    if (!typed) return;
    if (typed.kind === 'command') {
      const words = commandText(typed.text, { state: s, remaining: (c) => this.clocks.remaining(c), sideOfPly: (i) => this.sideOfPly(i) });
      if (words === null) toast(t('unknownCommand')); else announce(words);
      return;
    }
    if (!this.myTurn()) { toast(t('notYourTurn')); return; }
    this.sendMove(typed.move);
  }

  // ---- premoves -----------------------------------------------------------

  drawPremoves() {
    if (settings.premoveQueue && !this.myTurn() && this.state) this.premoves.draw(this.state.fen);
  }

  clearPremoves() {
    if (this.premoves.clear()) this.redraw();
  }

  private playPremove() {
    const s = this.state;
    if (!s || !this.myTurn() || this.viewPly !== null) return;
    if (settings.premoveQueue) {
      if (!this.premoves.length) return;
      const m = this.premoves.next(s.legal);
      if (!m) { this.redraw(); return; }
      this.board.cg.move(m.from, m.to);
      this.sendMove({ uci: m.uci });
      this.drawPremoves();
    } else if (s.you !== 'both') {
      this.board.cg.playPremove();
    }
  }

  // ---- review and keys ----------------------------------------------------

  goto(ply: number | null) {
    const s = this.state;
    if (!s) return;
    this.viewPly = ply === null || ply >= s.ply ? null : Math.max(0, ply);
    this.redraw();
  }

  step(d: number) {
    const s = this.state;
    if (s) this.goto((this.viewPly ?? s.ply) + d);
  }

  flip() {
    this.orientation = opposite(this.orientation);
    this.redraw();
  }

  toggleSound() { setSetting('sound', !settings.sound); }

  private onKey = (e: KeyboardEvent) => {
    const tgt = e.target;
    if (tgt instanceof HTMLInputElement || tgt instanceof HTMLTextAreaElement || tgt instanceof HTMLSelectElement) return;
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return; // e.g. the keyboard board's own keys
    switch (e.key) {
      case 'ArrowLeft': this.step(-1); break;
      case 'ArrowRight': this.step(1); break;
      case 'Home': this.goto(0); break;
      case 'End': this.goto(null); break;
      case 'f': this.flip(); break;
      case 'z': toggleZen(); break;
      case 'Escape': this.clearPremoves(); this.board.cg.cancelPremove(); return;
      case '/': case 'm': this.view.focusInput(); break;
      default: return;
    }
    e.preventDefault();
  };
}
