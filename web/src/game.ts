// The game screen: board, clocks, move list, actions (P5-P10, P12, P14, P16).
// Everything shown comes from the last `state` the server sent; the board may run
// ahead by one move (the one just made) until the server answers.
import type { Key } from '@lichess-org/chessground/types';
import { GameSocket, pgnUrl } from './api';
import { Board, type BoardMove } from './board';
import { Clocks } from './clockview';
import { clear, h, toast } from './dom';
import { t, endText } from './i18n';
import { material } from './material';
import { displaySan, startOf } from './notation';
import { fenAt } from './replay';
import { onSettings, setSetting, settings } from './settings';
import { play, soundForSan } from './sound';
import { announce, describeMove } from './speech';
import { inviteFor, saveSeat } from './store';
import type { Color, GameState } from './types';
import { toggleFullscreen, toggleZen } from './layout';
import { icon } from './icons';

const opposite = (c: Color): Color => (c === 'white' ? 'black' : 'white');
const PIECE_CHAR: Record<string, string> = { q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };

export class GameView {
  private state: GameState | null = null;
  private socket: GameSocket;
  private board: Board;
  private clocks: Clocks;
  private viewPly: number | null = null; // null: following the game live
  private orientation: Color = 'white';
  private orientationSet = false;
  private queue: BoardMove[] = []; // premove queue (settings.premoveQueue)
  private halfRtt = 0;
  private confirmingResign = false;
  private claimWithMove = '';
  private keyHandler: (e: KeyboardEvent) => void;
  private root: HTMLElement;
  private el: Record<string, HTMLElement> = {};

  constructor(mount: HTMLElement, private gameId: string, seat: string | null) {
    this.root = this.layout();
    clear(mount, this.root);
    this.board = new Board(this.el.board, { viewOnly: false, movable: { color: undefined } });
    this.board.onMove = (m) => this.userMove(m);
    this.board.onPremove = (m) => this.premoveSet(m);
    this.board.onPremoveCancel = () => {};
    this.clocks = new Clocks({ white: this.el.clockWhite, black: this.el.clockBlack });
    this.clocks.onLow = (c) => { if (this.isMine(c)) play('lowtime'); };
    this.socket = new GameSocket(gameId, seat, {
      state: (s) => this.onState(s),
      error: (code, message) => this.onError(code, message),
      status: (st) => this.setConn(st),
      lag: (rtt) => { this.halfRtt = rtt / 2; },
    });
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
    this.el.board.addEventListener('contextmenu', (e) => { if (this.queue.length) { e.preventDefault(); this.clearQueue(); } });
    onSettings(() => this.state && this.render());
    window.addEventListener('online', this.kick);
    document.addEventListener('visibilitychange', this.kick);
  }

  private kick = () => { if (document.visibilityState === 'visible') this.socket.kick(); };

  destroy() {
    this.socket.close();
    this.clocks.destroy();
    this.board.destroy();
    document.removeEventListener('keydown', this.keyHandler);
    window.removeEventListener('online', this.kick);
    document.removeEventListener('visibilitychange', this.kick);
  }

  // ---- layout -------------------------------------------------------------

  private playerBar(pos: 'top' | 'bottom') {
    const clock = h('div.clock', { role: 'timer', 'aria-live': 'off' });
    const bar = h(`div.player-bar.${pos}`,
      h('div.player-info', h('span.player-name'), h('span.material')),
      clock);
    return bar;
  }

  private layout(): HTMLElement {
    const E = this.el;
    E.top = this.playerBar('top');
    E.bottom = this.playerBar('bottom');
    E.board = h('div.board', { 'aria-label': t('board'), role: 'application' });
    E.clockWhite = h('div'); E.clockBlack = h('div'); // replaced in placeBars
    E.status = h('div.status', { 'aria-live': 'polite' });
    E.conn = h('div.conn', { hidden: true }, t('reconnecting'));
    E.moves = h('div.moves', { role: 'list', 'aria-label': t('moves'), tabindex: '0' });
    E.nav = h('div.nav',
      this.navBtn(icon('first'), 'first', () => this.goto(0)),
      this.navBtn(icon('prev'), 'previous', () => this.step(-1)),
      this.navBtn(icon('next'), 'next', () => this.step(1)),
      this.navBtn(icon('last'), 'last', () => this.goto(null)));
    E.input = h('input.move-input', {
      type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: false,
      placeholder: t('typeMove'), 'aria-label': t('typeMoveLabel'),
      onkeydown: (e: KeyboardEvent) => { if (e.key === 'Enter') this.submitTyped(); },
    });
    E.actions = h('div.actions');
    E.prompt = h('div.prompt', { 'aria-live': 'assertive' });
    E.share = h('div.share');
    E.tools = h('div.tools',
      this.toolBtn('flip', icon('flip'), t('flip'), () => this.flip()),
      this.toolBtn('sound', icon('soundOn'), t('sound'), () => setSetting('sound', !settings.sound)),
      this.toolBtn('zen', icon('zen'), t('zen'), () => toggleZen()),
      this.toolBtn('fullscreen', icon('fullscreen'), t('fullscreen'), () => toggleFullscreen()),
      h('a.tool', { href: pgnUrl(this.gameId), download: `outpost-${this.gameId}.pgn`, 'data-tool': 'pgn', 'aria-label': t('downloadPgn'), title: t('downloadPgn') }, 'PGN'));
    E.end = h('div.end-box', { hidden: true });
    return h('main.game-screen',
      h('section.board-col', E.top, h('div.board-wrap', E.board), E.bottom),
      h('aside.side',
        E.conn, E.status, E.end, E.prompt,
        h('div.moves-box', E.moves, E.nav),
        h('div.input-row', E.input),
        E.actions, E.share, E.tools));
  }

  private navBtn(label: HTMLElement, key: string, f: () => void) {
    return h('button.navbtn', { type: 'button', 'aria-label': t(`nav_${key}` as any), title: t(`nav_${key}` as any), 'data-nav': key, onclick: f }, label);
  }

  private toolBtn(name: string, ic: HTMLElement, label: string, f: () => void) {
    return h('button.tool', { type: 'button', 'data-tool': name, 'aria-label': label, title: label, onclick: f }, ic);
  }

  // ---- state --------------------------------------------------------------

  private isMine(c: Color): boolean {
    const you = this.state?.you;
    return you === 'both' || you === c;
  }

  private myTurn(): boolean {
    const s = this.state;
    return !!s && s.status === 'ongoing' && this.isMine(s.turn);
  }

  private onState(s: GameState) {
    const prev = this.state;
    this.state = s;
    if (!this.orientationSet || (prev && prev.you !== s.you)) {
      this.orientation = s.you === 'black' ? 'black' : 'white';
      this.orientationSet = true;
    }
    if (s.you === 'both' && settings.autoFlip && s.status === 'ongoing') this.orientation = s.turn;
    const newMoves = prev && prev.id === s.id && s.ply > prev.ply;
    const tookBack = prev && prev.id === s.id && s.ply < prev.ply;
    if (tookBack && this.viewPly !== null && this.viewPly > s.ply) this.viewPly = null;
    if (newMoves && s.san.length) {
      const i = s.san.length - 1;
      const white = this.sideOfPly(i) === 'white';
      play(soundForSan(s.san[i]));
      announce(describeMove(s.moves[i], s.san[i], white));
    }
    if (prev && prev.status === 'ongoing' && s.status !== 'ongoing') {
      play('end');
      announce(endText(s));
      this.clearQueue();
    }
    if (s.rematch?.game && s.rematch.seat && s.you !== 'spectator' && s.rematch.game !== s.id) {
      saveSeat({ game: s.rematch.game, token: s.rematch.seat, color: s.you === 'both' ? 'both' : opposite(s.you as Color), created: Date.now() });
      location.hash = `#/game/${s.rematch.game}?seat=${encodeURIComponent(s.rematch.seat)}`;
      return;
    }
    if (s.status !== 'ongoing') this.confirmingResign = false;
    this.clocks.sync(s.clock, this.halfRtt);
    this.render();
    this.playQueued();
  }

  private onError(code: string, message: string) {
    toast(message || code);
    this.render(); // undo whatever the board ran ahead with
  }

  private setConn(st: 'connecting' | 'open' | 'closed') {
    this.el.conn.hidden = st === 'open';
    this.el.conn.textContent = st === 'connecting' && !this.state ? t('connecting') : t('reconnecting');
  }

  private sideOfPly(i: number): Color {
    const { blackFirst } = startOf(this.state!.initial_fen);
    return (i % 2 === 0) !== blackFirst ? 'white' : 'black';
  }

  // ---- rendering ----------------------------------------------------------

  private render() {
    const s = this.state;
    if (!s) return;
    // For tests and styles: where the game stands.
    Object.assign(this.root.dataset, { ply: String(s.ply), status: s.status, turn: s.turn, you: s.you, myturn: String(this.myTurn()) });
    document.title = `${s.status === 'ongoing' ? (this.myTurn() ? '● ' : '') : ''}Outpost · ${s.players.white.name ?? t('white')} – ${s.players.black.name ?? t('black')}`;
    this.renderBoard();
    this.renderBars();
    this.renderStatus();
    this.renderMoves();
    this.renderActions();
    this.renderShare();
    this.renderTools();
  }

  private renderBoard() {
    const s = this.state!;
    const live = this.viewPly === null || this.viewPly >= s.ply;
    const chess960 = s.variant === 'chess960';
    const last = (uci: string | null | undefined) => (uci ? [uci.slice(0, 2), uci.slice(2, 4)] as Key[] : undefined);
    this.el.board.classList.toggle('blindfold', settings.blindfold);
    this.el.board.parentElement!.classList.toggle('reviewing', !live);
    if (live) {
      const mine = s.status === 'ongoing' && s.you !== 'spectator';
      const movableColor = !mine ? undefined : s.you === 'both' ? s.turn : (s.you as Color);
      this.board.set({
        fen: s.fen,
        orientation: this.orientation,
        turnColor: s.turn,
        lastMove: last(s.last_move),
        check: !!s.check,
        coordinates: settings.coordinates,
        animation: { enabled: settings.animation },
        movable: { color: movableColor, dests: this.isMine(s.turn) ? Board.dests(s.legal, chess960) : new Map(), rookCastle: true },
        premovable: { enabled: mine && s.you !== 'both' },
        highlight: { custom: new Map() },
        draggable: { enabled: true },
      });
      this.applyQueueVisual();
    } else {
      const ply = this.viewPly!;
      const fen = fenAt(s.initial_fen, s.moves, ply);
      const turnWhite = ply === 0 ? !startOf(s.initial_fen).blackFirst : this.sideOfPly(ply - 1) === 'black';
      const san = ply > 0 ? s.san[ply - 1] : '';
      const inCheck = /[+#]/.test(san);
      this.board.set({
        fen,
        orientation: this.orientation,
        turnColor: turnWhite ? 'white' : 'black',
        lastMove: last(ply > 0 ? s.moves[ply - 1] : undefined),
        check: inCheck ? (turnWhite ? 'white' : 'black') : false,
        movable: { color: undefined, dests: new Map() },
        premovable: { enabled: false },
        highlight: { custom: new Map() },
      });
    }
  }

  private renderBars() {
    const s = this.state!;
    const bottomColor = this.orientation;
    const topColor = opposite(bottomColor);
    const fen = this.viewPly === null ? s.fen : fenAt(s.initial_fen, s.moves, this.viewPly);
    const mat = material(fen);
    for (const [bar, color] of [[this.el.top, topColor], [this.el.bottom, bottomColor]] as Array<[HTMLElement, Color]>) {
      const p = s.players[color];
      const name = bar.querySelector('.player-name') as HTMLElement;
      const label = p.kind === 'robot'
        ? t('robotName', { level: p.level ?? '?', elo: p.elo ?? '?' })
        : (p.name || t(color === 'white' ? 'white' : 'black'));
      clear(name, h(`span.dot.${color}`, { 'aria-hidden': 'true' }), label,
        s.you === color ? h('span.you', ` (${t('you')})`) : null);
      name.setAttribute('aria-label', `${t(color)}: ${label}`);
      const m = bar.querySelector('.material') as HTMLElement;
      const caps = color === 'white' ? mat.white : mat.black;
      const plus = color === 'white' ? mat.diff : -mat.diff;
      clear(m, caps.map((r) => h(`span.cap.${color === 'white' ? 'black' : 'white'}`, PIECE_CHAR[r])),
        plus > 0 ? h('span.plus', `+${plus}`) : null);
      m.setAttribute('aria-label', plus > 0 ? t('materialUp', { n: plus }) : '');
      const clock = bar.querySelector('.clock') as HTMLElement;
      clock.dataset.color = color;
      clock.setAttribute('aria-label', t('clockOf', { side: t(color) }));
      if (color === 'white') this.el.clockWhite = clock; else this.el.clockBlack = clock;
      bar.classList.toggle('to-move', s.status === 'ongoing' && s.turn === color);
    }
    this.clocks.els = { white: this.el.clockWhite, black: this.el.clockBlack };
    this.clocks.render();
  }

  private renderStatus() {
    const s = this.state!;
    let text: string;
    if (s.status !== 'ongoing') text = '';
    else if (s.you === 'spectator') text = t('toMove', { side: t(s.turn) });
    else if (this.myTurn()) text = s.you === 'both' ? t('toMove', { side: t(s.turn) }) : t('yourTurn');
    else text = s.players[s.turn].kind === 'robot' ? t('robotThinking') : t('waitingOpponent');
    this.el.status.classList.toggle('over', s.status !== 'ongoing');
    const tc = s.clock?.time_control;
    clear(this.el.status, text ? h('div.status-text', text) : null, h('div.meta',
      [s.variant === 'chess960' ? `Chess960 #${s.chess960 ?? ''}` : t('standard'),
        tc && tc !== '-' ? `${tc} · ${t(`class_${s.clock!.class}` as any)}` : t('unlimited')].join(' · ')));
  }

  private renderMoves() {
    const s = this.state!;
    const { number, blackFirst } = startOf(s.initial_fen);
    const cur = this.viewPly ?? s.ply;
    const rows: HTMLElement[] = [];
    let row: HTMLElement | null = null;
    for (let i = 0; i < s.san.length; i++) {
      const white = this.sideOfPly(i) === 'white';
      if (white || !row) {
        const n = number + Math.floor((i + (blackFirst ? 1 : 0)) / 2);
        row = h('div.move-row', { role: 'listitem' }, h('span.num', `${n}.`));
        rows.push(row);
        if (!white) row.append(h('span.mv.empty', '…'));
      }
      row.append(h('button.mv', {
        type: 'button', class: i + 1 === cur ? 'active' : '', 'data-ply': String(i + 1),
        'aria-label': describeMove(s.moves[i], s.san[i], white),
        onclick: () => this.goto(i + 1 === s.ply ? null : i + 1),
      }, displaySan(s.san[i], white)));
    }
    if (s.status !== 'ongoing' && s.result && s.result !== '*') rows.push(h('div.result', s.result.replace('1/2', '½').replace('1/2', '½')));
    clear(this.el.moves, rows);
    const active = this.el.moves.querySelector('.mv.active') as HTMLElement | null;
    if (active && this.viewPly !== null) active.scrollIntoView({ block: 'nearest' });
    else this.el.moves.scrollTop = this.el.moves.scrollHeight;
    const back = this.viewPly !== null && this.viewPly < s.ply;
    this.el.nav.classList.toggle('reviewing', back);
  }

  private btn(label: string, action: string, f: () => void, cls = '') {
    return h(`button.action${cls ? '.' + cls : ''}`, { type: 'button', 'data-action': action, onclick: f }, label);
  }

  private renderActions() {
    const s = this.state!;
    const A = this.el.actions;
    const P = this.el.prompt;
    clear(A); clear(P);
    this.el.input.parentElement!.querySelector('.claim-move')?.remove();
    this.el.end.hidden = true;
    const player = s.you !== 'spectator';
    this.el.input.parentElement!.hidden = !player || s.status !== 'ongoing';
    if (!player) {
      if (s.status !== 'ongoing') {
        this.el.end.hidden = false;
        clear(this.el.end, h('div.end-text', endText(s)),
          h('div.end-buttons', h('a.action', { href: pgnUrl(s.id), download: `outpost-${s.id}.pgn`, 'data-action': 'pgn' }, t('downloadPgn'))));
      }
      return;
    }
    const me: Color | null = s.you === 'both' ? null : (s.you as Color);
    const opp = me ? opposite(me) : null;
    if (s.status === 'ongoing') {
      // Offers and requests waiting for an answer.
      if (s.draw_offer && (s.you === 'both' || s.draw_offer === opp)) {
        P.append(h('div.offer', h('span', t('drawOffered', { side: t(s.draw_offer) })),
          this.btn(t('accept'), 'draw-accept', () => this.send({ t: 'draw', action: 'accept' }), 'yes'),
          this.btn(t('decline'), 'draw-decline', () => this.send({ t: 'draw', action: 'decline' }), 'no')));
      }
      if (s.takeback_request && (s.you === 'both' || s.takeback_request === opp)) {
        P.append(h('div.offer', h('span', t('takebackRequested', { side: t(s.takeback_request) })),
          this.btn(t('accept'), 'takeback-accept', () => this.send({ t: 'takeback', action: 'accept' }), 'yes'),
          this.btn(t('decline'), 'takeback-decline', () => this.send({ t: 'takeback', action: 'decline' }), 'no')));
      }
      if (this.confirmingResign) {
        P.append(h('div.offer', h('span', t('confirmResign')),
          this.btn(t('resign'), 'resign-confirm', () => { this.confirmingResign = false; this.send({ t: 'resign' }); }, 'no'),
          this.btn(t('cancel'), 'resign-cancel', () => { this.confirmingResign = false; this.render(); })));
      }
      if (s.can_abort) A.append(this.btn(t('abort'), 'abort', () => this.send({ t: 'abort' })));
      else A.append(this.btn(t('resign'), 'resign', () => this.resign()));
      if (s.draw_offer && s.draw_offer === me) A.append(h('span.pending', t('drawOfferSent')));
      else if (!(s.draw_offer && s.draw_offer === opp)) A.append(this.btn(t('offerDraw'), 'draw-offer', () => this.send({ t: 'draw', action: 'offer' })));
      for (const c of s.claimable ?? []) {
        A.append(this.btn(t(c === 'fifty-moves' ? 'claimFifty' : 'claimThreefold'), `claim-${c}`, () => this.send({ t: 'claim', claim: c }), 'claim'));
      }
      if (s.ply > 0) {
        if (s.takeback_request && s.takeback_request === me) A.append(h('span.pending', t('takebackSent')));
        else if (!(s.takeback_request && s.takeback_request === opp)) A.append(this.btn(t('takeback'), 'takeback', () => this.send({ t: 'takeback', action: 'request' })));
      }
      if (s.clock && s.clock.class !== 'unlimited' && s.you !== 'both') {
        A.append(this.btn(t('giveTime'), 'give-time', () => this.send({ t: 'give_time', seconds: 15 })));
      }
      if (this.myTurn()) {
        const sel = h('select.claim-with-move', { 'aria-label': t('claimWithMove'), 'data-action': 'claim-with-move',
          onchange: (e: Event) => { this.claimWithMove = (e.target as HTMLSelectElement).value; } },
        h('option', { value: '' }, t('claimWithMoveNone')),
        h('option', { value: 'threefold-repetition' }, t('claimWithMoveThreefold')),
        h('option', { value: 'fifty-moves' }, t('claimWithMoveFifty'))) as HTMLSelectElement;
        sel.value = this.claimWithMove;
        this.el.input.parentElement!.append(h('label.claim-move', sel));
      }
    } else {
      const box = this.el.end;
      box.hidden = false;
      const r = s.rematch;
      const rematchBtn = r?.offered_by && r.offered_by !== me && s.you !== 'both'
        ? this.btn(t('acceptRematch'), 'rematch-accept', () => this.send({ t: 'rematch', action: 'accept' }), 'primary')
        : r?.offered_by && r.offered_by === me
          ? h('span.pending', t('rematchSent'))
          : this.btn(t('rematch'), 'rematch', () => this.send({ t: 'rematch', action: 'offer' }), 'primary');
      clear(box, h('div.end-text', endText(s)),
        h('div.end-buttons', rematchBtn,
          this.btn(t('newGame'), 'new-game', () => { location.hash = '#/'; }),
          h('a.action', { href: pgnUrl(s.id), download: `outpost-${s.id}.pgn`, 'data-action': 'pgn' }, t('downloadPgn'))));
    }
  }

  private renderShare() {
    const s = this.state!;
    const base = `${location.origin}${location.pathname}`;
    const items: HTMLElement[] = [];
    const invite = inviteFor(s.id);
    if (invite && s.status === 'ongoing') items.push(this.copyRow(t('inviteLink'), `${base}#/game/${s.id}?seat=${encodeURIComponent(invite)}`, 'invite'));
    items.push(this.copyRow(t('watchLink'), `${base}#/game/${s.id}`, 'watch'));
    clear(this.el.share, items);
  }

  private copyRow(label: string, url: string, kind: string) {
    const input = h('input.link', { type: 'text', readonly: true, value: url, 'aria-label': label, 'data-link': kind }) as HTMLInputElement;
    return h('div.copy-row', h('span.copy-label', label), input,
      h('button.copy', { type: 'button', 'data-copy': kind, onclick: async () => {
        try { await navigator.clipboard.writeText(url); toast(t('copied'), 'info'); }
        catch { input.select(); document.execCommand('copy'); toast(t('copied'), 'info'); }
      } }, t('copy')));
  }

  private renderTools() {
    const b = this.el.tools.querySelector('[data-tool=sound]') as HTMLElement;
    clear(b, icon(settings.sound ? 'soundOn' : 'soundOff'));
    b.setAttribute('aria-pressed', String(settings.sound));
    b.title = settings.sound ? t('soundOn') : t('soundOff');
  }

  // ---- moves --------------------------------------------------------------

  private send(msg: Record<string, unknown>) {
    if (!this.socket.send(msg)) toast(t('notConnected'));
  }

  private resign() {
    if (settings.confirmResign) { this.confirmingResign = true; this.render(); return; }
    this.send({ t: 'resign' });
  }

  // Standard chess: the king dropped on its own rook means castling (e1g1).
  private toUci(m: BoardMove): string {
    const s = this.state!;
    let to = m.to;
    if (s.variant !== 'chess960' && (m.from === 'e1' || m.from === 'e8')) {
      const r = m.from[1];
      const legal = s.legal?.[m.from] ?? [];
      if (to === `h${r}` && legal.includes(`g${r}`) && !legal.includes(`h${r}`)) to = `g${r}`;
      if (to === `a${r}` && legal.includes(`c${r}`) && !legal.includes(`a${r}`)) to = `c${r}`;
    }
    return `${m.from}${to}${m.promo ?? ''}`;
  }

  private userMove(m: BoardMove) {
    if (!m.from) { this.render(); return; } // promotion cancelled
    const s = this.state;
    if (!s) return;
    this.sendMove({ uci: this.toUci(m) });
  }

  private sendMove(move: { uci?: string; san?: string }) {
    const s = this.state!;
    if (this.claimWithMove) {
      const claim = this.claimWithMove;
      this.claimWithMove = '';
      this.send({ t: 'claim', claim, ...move });
      return;
    }
    this.send({ t: 'move', ...move, ply: s.ply });
  }

  private submitTyped() {
    const input = this.el.input as HTMLInputElement;
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    if (this.command(text)) return;
    if (!this.myTurn()) { toast(t('notYourTurn')); return; }
    const compact = text.replace(/[-\s]/g, '').toLowerCase();
    if (/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(compact)) this.sendMove({ uci: compact });
    else this.sendMove({ san: text.replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O') });
  }

  // P16 commands typed in the move box: "/clock", "/last", "/board", "/e4", "/N".
  private command(text: string): boolean {
    if (!text.startsWith('/')) return false;
    const s = this.state;
    if (!s) return true;
    const c = text.slice(1).trim();
    const placement = new Map<string, string>();
    fenAt(s.fen, [], 0).split('/').forEach((row, i) => {
      let f = 0;
      for (const ch of row) { if (/\d/.test(ch)) f += +ch; else placement.set(`${'abcdefgh'[f++]}${8 - i}`, ch); }
    });
    const nameOf = (ch: string) => `${t(ch === ch.toUpperCase() ? 'white' : 'black')} ${t(`piece_${({ k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' } as any)[ch.toLowerCase()]}` as any)}`;
    if (/^clocks?$/i.test(c)) {
      const f = (ms: number) => `${Math.floor(ms / 60000)} min ${Math.floor((ms % 60000) / 1000)} s`;
      announce(`${t('white')} ${f(this.clocks.remaining('white'))}, ${t('black')} ${f(this.clocks.remaining('black'))}`);
    } else if (/^last$/i.test(c)) {
      const n = s.san.length;
      announce(s.san.slice(Math.max(0, n - 4)).map((san, k) => {
        const i = Math.max(0, n - 4) + k;
        return describeMove(s.moves[i], san, this.sideOfPly(i) === 'white');
      }).join('. ') || t('noMoves'));
    } else if (/^(board|position)$/i.test(c)) {
      const parts: string[] = [];
      for (const color of ['white', 'black']) {
        const list = [...placement].filter(([, p]) => (p === p.toUpperCase()) === (color === 'white'))
          .sort((a, b) => 'KQRBNP'.indexOf(a[1].toUpperCase()) - 'KQRBNP'.indexOf(b[1].toUpperCase()))
          .map(([sq, p]) => `${t(`piece_${({ K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' } as any)[p.toUpperCase()]}` as any)} ${sq}`);
        parts.push(`${t(color as Color)}: ${list.join(', ')}`);
      }
      announce(parts.join('. '));
    } else if (/^[a-h][1-8]$/i.test(c)) {
      const p = placement.get(c.toLowerCase());
      announce(`${c.toLowerCase()}: ${p ? nameOf(p) : t('emptySquare')}`);
    } else if (/^[KQRBNPkqrbnp]$/.test(c)) {
      const sqs = [...placement].filter(([, p]) => p === c).map(([sq]) => sq);
      announce(`${nameOf(c)}: ${sqs.join(', ') || t('none')}`);
    } else toast(t('unknownCommand'));
    return true;
  }

  // ---- premoves -----------------------------------------------------------

  // Queue mode hooks into chessground's premove: each premove set joins the queue
  // (single mode: chessground keeps its one premove itself).
  private premoveSet(m: BoardMove) {
    if (!settings.premoveQueue) return;
    const piece = this.board.cg.state.pieces.get(m.from as Key);
    const last = m.to[1] === '8' || m.to[1] === '1';
    const promo = piece?.role === 'pawn' && last ? 'q' : undefined;
    this.queue.push({ ...m, promo });
    this.board.cg.cancelPremove();
    this.applyQueueVisual();
  }

  // In queue mode, premoves are made on the board at once (so that the next one
  // starts from there) and sent one by one when the turn comes.
  private clearQueue() {
    if (!this.queue.length) return;
    this.queue = [];
    this.render();
  }

  private applyQueueVisual() {
    if (!settings.premoveQueue || !this.queue.length || this.myTurn() || !this.state) return;
    this.board.set({ fen: this.state.fen }); // the queue is drawn over the server's position
    const custom = new Map<Key, string>();
    for (const m of this.queue) {
      const piece = this.board.cg.state.pieces.get(m.from as Key);
      if (!piece) break;
      const diff = new Map<Key, any>([[m.from as Key, undefined], [m.to as Key, m.promo ? { role: ({ q: 'queen', r: 'rook', b: 'bishop', n: 'knight' } as any)[m.promo], color: piece.color } : piece]]);
      this.board.cg.setPieces(diff);
      custom.set(m.from as Key, 'current-premove'); custom.set(m.to as Key, 'current-premove');
    }
    this.board.set({ highlight: { custom } });
  }

  private playQueued() {
    const s = this.state!;
    if (!this.myTurn() || this.viewPly !== null) return;
    if (settings.premoveQueue) {
      const m = this.queue.shift();
      if (!m) return;
      const legal = s.legal?.[m.from] ?? [];
      const uci = this.toUci(m);
      if (!legal.includes(uci.slice(2, 4))) { this.queue = []; this.render(); return; }
      this.board.cg.move(m.from as Key, m.to as Key);
      this.sendMove({ uci });
      this.applyQueueVisual();
    } else if (s.you !== 'both') {
      this.board.cg.playPremove();
    }
  }

  // ---- review and keys ----------------------------------------------------

  private goto(ply: number | null) {
    const s = this.state;
    if (!s) return;
    this.viewPly = ply === null || ply >= s.ply ? null : Math.max(0, ply);
    this.render();
  }

  private step(d: number) {
    const s = this.state;
    if (!s) return;
    const cur = this.viewPly ?? s.ply;
    this.goto(cur + d);
  }

  private flip() {
    this.orientation = opposite(this.orientation);
    this.render();
  }

  private onKey(e: KeyboardEvent) {
    const tgt = e.target as HTMLElement;
    if (tgt && (tgt.tagName === 'INPUT' || tgt.tagName === 'TEXTAREA' || tgt.tagName === 'SELECT')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    switch (e.key) {
      case 'ArrowLeft': this.step(-1); break;
      case 'ArrowRight': this.step(1); break;
      case 'Home': this.goto(0); break;
      case 'End': this.goto(null); break;
      case 'f': this.flip(); break;
      case 'z': toggleZen(); break;
      case 'Escape': this.clearQueue(); this.board.cg.cancelPremove(); return;
      case '/': case 'm': (this.el.input as HTMLInputElement).focus(); break;
      default: return;
    }
    e.preventDefault();
  }
}
