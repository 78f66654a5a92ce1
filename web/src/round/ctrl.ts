// The game screen's controller (P5-P10, P12, P14, P16), after lichess's ui/round:
// it holds the last state the server sent and what the player is doing with it
// (reviewing, a pending resign, premoves), turns board gestures and typed text into
// protocol messages, and asks the view to redraw. The board may run ahead by one
// move (the one just made) until the server answers.
import { account } from '../account';
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
import { announce, describeMove, pieceWords, squareWords } from '../speech';
import { placement } from './keyboardMove';
import { saveSeat, seatFor } from '../store';
import { storedName, storeName } from '../playername';
import type { Key } from '@lichess-org/chessground/types';
import type { Claim, ClientMessage, Color, GameState, MoveText } from '../types';
import { commandText, readTyped, type CommandContext } from './keyboardMove';
import { NvuiPanel } from './nvui';
import { notifyMyTurn } from './notify';
import { PremoveQueue } from './premove';
import { PresenceClock } from './presence';
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
  // R15 touch-move training (FIDE Article 4.3): set up on the home page, kept with the
  // seat on this device. `touched` is the piece picked up at ply `touchedPly`.
  readonly touchMove: boolean;
  touched: Key | null = null;
  private touchedPly = -1;
  private sentAtPly = -1; // a move sent at this ply and not yet answered (the touched piece has gone)
  private promoting = false;
  private halfRtt = 0;
  private readonly offSettings: () => void;
  readonly nvui: NvuiPanel;
  readonly presence = new PresenceClock(() => this.redraw()); // P22

  constructor(mount: HTMLElement, readonly gameId: string, seat: string | null, private readonly autoAnalyse = false) {
    this.analysis = new AnalysisPanel({
      gameId,
      shownPly: () => this.viewPly ?? this.state?.ply ?? 0,
      goto: (ply) => this.goto(ply),
      moveText: (ply) => displaySan(this.state?.san[ply - 1] ?? '', this.sideOfPly(ply - 1) === 'white'),
      redraw: () => this.redraw(),
      hasMoves: () => (this.state?.ply ?? 0) > 0,
      myColor: () => {
        const me = account()?.name.toLowerCase();
        const players = this.state?.players;
        if (!me || !players) return null;
        return (['white', 'black'] as const).find((c) => players[c].account?.toLowerCase() === me) ?? null;
      },
    });
    this.touchMove = !!seatFor(gameId)?.touchMove;
    this.nvui = new NvuiPanel((command) => (this.state ? commandText(command, this.commandContext(this.state)) : null));
    this.view = new RoundView(this, mount);
    this.board = new Board(this.view.el.board, { viewOnly: false, movable: { color: undefined } });
    this.board.onMove = (m) => this.userMove(m);
    this.board.onPremove = (m) => { if (settings.premoveQueue) { this.premoves.push(m); this.redraw(); } };
    this.promotion = new Promotion(this.view.el.board);
    this.keyboardBoard = new KeyboardBoard(this.view.el.board, this.board, {
      lock: () => this.touchLock(), refuse: () => this.refuseTouch(), after: () => this.checkTouch(),
    });
    if (this.touchMove) {
      // After chessground has handled the press and the release (it listens on the board and the document).
      for (const type of ['pointerdown', 'pointerup'] as const) document.addEventListener(type, this.touchSoon);
    }
    this.premoves = new PremoveQueue(this.board, () => this.state?.variant ?? 'standard');
    this.clocks = new Clocks({ white: this.view.el.clockWhite, black: this.view.el.clockBlack });
    this.clocks.onLow = (c) => { if (this.isMine(c)) play('lowtime'); };
    this.socket = new GameSocket(gameId, seat, {
      state: (s) => this.onState(s),
      error: (code, message) => { this.sentAtPly = -1; this.typedRefused(); toast(errorText(code, message)); this.redraw(); }, // undo what the board ran ahead with
      status: (st) => { this.view.setConn(st, this.state !== null); if (st === 'open') this.sendPresence(); },
      lag: (rtt) => { this.halfRtt = rtt / 2; },
    });
    document.addEventListener('keydown', this.onKey);
    this.view.el.board.addEventListener('contextmenu', (e) => { if (this.premoves.length) { e.preventDefault(); this.clearPremoves(); } });
    this.offSettings = onSettings(this.redraw);
    window.addEventListener('online', this.kick);
    document.addEventListener('visibilitychange', this.kick);
  }

  private kick = () => { if (document.visibilityState === 'visible') this.socket.kick(); this.sendPresence(); };

  // P22: a hidden tab is "away" for the opponent (a new connection starts online).
  private sendPresence() {
    const hidden = document.visibilityState === 'hidden';
    if (hidden || this.sentAway) this.sentAway = hidden && this.socket.send({ t: 'presence', state: hidden ? 'away' : 'online' });
  }
  private sentAway = false;

  destroy() {
    this.analysis.destroy();
    this.presence.destroy();
    this.offSettings();
    this.socket.close();
    this.clocks.destroy();
    this.promotion.cancel();
    this.keyboardBoard.destroy();
    this.board.destroy();
    document.removeEventListener('keydown', this.onKey);
    for (const type of ['pointerdown', 'pointerup'] as const) document.removeEventListener(type, this.touchSoon);
    window.removeEventListener('online', this.kick);
    document.removeEventListener('visibilitychange', this.kick);
  }

  redraw = () => { if (this.state) this.view.render(this.state); };

  // ---- what the state says ------------------------------------------------

  isMine(c: Color): boolean {
    const you = this.state?.you;
    return you === 'both' || you === c;
  }

  private isMineIn(s: GameState, c: Color): boolean { return s.you === 'both' || s.you === c; }

  myTurn(): boolean {
    const s = this.state;
    // R18: while a sealed move waits for its resumption, nobody is to move.
    return !!s && s.status === 'ongoing' && this.isMine(s.turn) && !(s.adjournment && !s.adjournment.resumed_at);
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
    this.presence.update(s);
    if (!this.orientationSet || (prev && prev.you !== s.you)) {
      this.orientation = s.you === 'black' ? 'black' : 'white';
      this.orientationSet = true;
    }
    if (s.you === 'both' && settings.autoFlip && s.status === 'ongoing') this.orientation = s.turn;
    const sameGame = prev !== null && prev.id === s.id;
    if (!sameGame || s.ply !== prev.ply) { this.touched = null; this.sentAtPly = -1; } // a new position: nothing touched yet
    if (sameGame && this.typedAtPly >= 0 && s.ply > this.typedAtPly) { this.typedAtPly = -1; this.view.el.input.value = ''; }
    if (sameGame && s.ply < prev.ply && this.viewPly !== null && this.viewPly > s.ply) this.viewPly = null;
    // Every new move of either side in words (two at once when the robot answered
    // before the state of our own move came), then the end of the game: one
    // announcement, so that a screen reader does not drop the first for the second.
    const said: string[] = [];
    if (sameGame && s.ply > prev.ply && s.san.length) {
      const last = s.san.length - 1;
      play(soundForSan(s.san[last]));
      for (let i = Math.max(prev.ply, last - 1, 0); i <= last; i++) said.push(describeMove(s.moves[i], s.san[i], this.sideOfPly(i) === 'white'));
    }
    if (prev && prev.status === 'ongoing' && s.status !== 'ongoing') {
      play('end');
      said.push(endText(s));
      this.premoves.clear();
      this.promotion.cancel();
    }
    if (said.length) announce(said.join('. '));
    // C3: it has just become this player's move (the title says it too: view.ts).
    if (sameGame && s.you !== 'both' && s.status === 'ongoing' && this.myTurn() && !(prev.status === 'ongoing' && this.isMineIn(prev, prev.turn) && !(prev.adjournment && !prev.adjournment.resumed_at)))
      notifyMyTurn(`${s.players.white.name ?? t('white')} – ${s.players.black.name ?? t('black')}`);
    if (s.rematch?.game && s.rematch.seat && s.you !== 'spectator' && s.rematch.game !== s.id) {
      saveSeat({ game: s.rematch.game, token: s.rematch.seat, color: s.you === 'both' ? 'both' : opposite(s.you), created: Date.now(), ...(this.touchMove ? { touchMove: true } : {}) });
      location.hash = `#/game/${s.rematch.game}?seat=${encodeURIComponent(s.rematch.seat)}`;
      return;
    }
    if (s.status !== 'ongoing') this.confirmingResign = false;
    this.sendStoredName(s);
    this.clocks.sync(s.clock, this.halfRtt, s.ply);
    this.view.render(s);
    if (s.status !== 'ongoing') this.analysis.gameOver(this.autoAnalyse);
    this.playPremove();
  }

  // P21: an anonymous player (an invite link's, too) plays under the name this browser
  // remembers: sent once when the seat's name differs from it.
  private sentName = false;
  private pendingName: string | null = null; // sent from the form, remembered once the server took it
  private sendStoredName(s: GameState) {
    if (s.you !== 'white' && s.you !== 'black') return;
    const me = s.players[s.you];
    if (this.pendingName !== null && me.name === this.pendingName) {
      storeName(this.pendingName);
      this.pendingName = null;
    }
    if (this.sentName || s.status !== 'ongoing') return;
    const name = storedName();
    if (me.kind !== 'human' || me.account || !name || me.name === name) return;
    this.sentName = this.socket.send({ t: 'name', name });
  }

  // The name form of the game screen: sent to the game, and remembered once the server
  // has taken it (a name it refuses is not kept).
  setName(name: string) {
    const n = name.trim();
    if (!n) return;
    this.pendingName = n;
    this.sentName = true;
    this.send({ t: 'name', name: n });
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
      this.promoting = true;
      void this.promotion.choose(m.to, piece.color, this.orientation).then((p) => {
        this.promoting = false;
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
    this.sentAtPly = s.ply;
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
      this.view.el.input.value = '';
      const words = commandText(typed.text, this.commandContext(s));
      if (words === null) toast(t('unknownCommand')); else announce(words);
      return;
    }
    if (!this.myTurn()) { toast(t('notYourTurn')); return; }
    const locked = this.touchLock();
    if (locked && (!typed.move.uci || typed.move.uci.slice(0, 2) !== locked)) { this.refuseTouch(); return; }
    this.typedAtPly = s.ply;
    this.sendMove(typed.move);
  }
  private typedAtPly = -1; // a typed move sent at this ply: the box empties once it is played

  // A typed move refused: the text stays, marked, and the reason is said.
  private typedRefused() {
    if (this.typedAtPly < 0) return;
    this.typedAtPly = -1;
    this.view.el.input.setAttribute('aria-invalid', 'true');
  }

  commandContext(s: GameState): CommandContext {
    const { number, blackFirst } = startOf(s.initial_fen);
    return {
      state: s, orientation: this.orientation,
      remaining: (c) => this.clocks.remaining(c),
      sideOfPly: (i) => this.sideOfPly(i),
      moveNumber: (i) => number + Math.floor((i + (blackFirst ? 1 : 0)) / 2),
    };
  }

  // ---- touch-move training (R15, FIDE Article 4) ---------------------------

  // The piece that must be moved now, if any.
  touchLock(): Key | null {
    const s = this.state;
    if (!this.touchMove || !this.touched || !s || this.touchedPly !== s.ply || !this.myTurn() || this.viewPly !== null) return null;
    if (this.sentAtPly === s.ply || this.promoting) return null; // released on a square: played (or being promoted)
    return this.touched;
  }

  touchWords(sq: Key): string {
    const p = placement(this.state?.fen ?? '').get(sq);
    return `${p ? pieceWords(p) : ''} ${squareWords(sq)}`.trim();
  }

  refuseTouch() {
    const sq = this.touchLock();
    if (!sq) return;
    if (this.board.cg.state.selected !== sq) { this.board.cg.selectSquare(null); this.board.cg.selectSquare(sq); }
    const words = t('touchMoveMust', { piece: this.touchWords(sq) });
    announce(words);
    toast(words, 'info');
  }

  private touchSoon = () => { window.setTimeout(() => this.checkTouch(), 0); };

  // A piece with a legal move picked up (by click, drag or key) becomes the touched
  // piece; any other selection afterwards is undone with a word why.
  checkTouch() {
    const s = this.state;
    if (!this.touchMove || !s || !this.myTurn() || this.viewPly !== null || this.sentAtPly === s.ply || this.promoting) return;
    const selected = this.board.cg.state.selected ?? null;
    if (!this.touchLock()) {
      if (selected && (s.legal?.[selected]?.length ?? 0) > 0) {
        this.touched = selected;
        this.touchedPly = s.ply;
        this.redraw(); // only this piece's moves are offered from now on
        this.board.cg.selectSquare(selected);
      }
      return;
    }
    if (selected !== this.touched) this.refuseTouch();
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
    if (document.querySelector('dialog[open]')) return; // the Settings dialog has the keys while it is open
    if (settings.screenReader && this.nvui.key(e.key)) { e.preventDefault(); return; }
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
