// The game screen's view: the layout once, then a render of everything from the
// controller's state (board, player bars, status, move list, actions, share links).
import { adjournFields, adjournmentBox } from './adjourn';
import { notifyToggle } from './notify';
import { LiveRatings } from './ratings';
import type { Key } from '@lichess-org/chessground/types';
import { pgnUrl } from '../api';
import { Board } from '../board';
import { clear, h, toast } from '../dom';
import { t, endText, playerName } from '../i18n';
import { icon } from '../icons';
import { toggleFullscreen, toggleZen } from '../layout';
import { material } from '../material';
import { displaySan, startOf } from '../notation';
import { positionAt } from '../replay';
import { settings } from '../settings';
import { describeMove } from '../speech';
import { inviteFor, seatFor } from '../store';
import type { TimeClass } from '../timecontrol';
import { formatTc } from '../timecontrol';
import type { Claim, Color, GameState } from '../types';
import { opposite, type RoundCtrl } from './ctrl';
import type { SocketStatus } from './socket';
import { reportBox } from '../report';

const CAPTURED_GLYPH: Record<string, string> = { q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
const CLAIMS: Array<[Claim, 'claimWithMoveThreefold' | 'claimWithMoveFifty']> = [
  ['threefold-repetition', 'claimWithMoveThreefold'], ['fifty-moves', 'claimWithMoveFifty']];
const isClaim = (v: string): v is Claim => v === 'threefold-repetition' || v === 'fifty-moves';
// A side offers a draw at most once in this many plies (the server's rule, as lichess's).
const DRAW_OFFER_INTERVAL = 20;
const TIME_CLASSES: readonly string[] = ['bullet', 'blitz', 'rapid', 'standard', 'correspondence', 'unlimited'];
const isTimeClass = (v: string): v is TimeClass => TIME_CLASSES.includes(v);
const squares = (uci: string | null | undefined): Key[] | undefined => {
  if (!uci) return undefined;
  const from = uci.slice(0, 2); const to = uci.slice(2, 4);
  return [from, to].every((k) => /^[a-h][1-8]$/.test(k)) ? [from as Key, to as Key] : undefined;
};

interface Elements {
  root: HTMLElement; top: HTMLElement; bottom: HTMLElement; board: HTMLElement;
  clockWhite: HTMLElement; clockBlack: HTMLElement; status: HTMLElement; conn: HTMLElement;
  moves: HTMLElement; nav: HTMLElement; input: HTMLInputElement; inputRow: HTMLElement;
  actions: HTMLElement; prompt: HTMLElement; share: HTMLElement; tools: HTMLElement; end: HTMLElement; title: HTMLElement;
}

export class RoundView {
  readonly el: Elements;
  private claimOpen = false;
  private readonly ratings = new LiveRatings(() => this.ctrl.redraw());

  constructor(private ctrl: RoundCtrl, mount: HTMLElement) {
    this.el = this.layout();
    clear(mount, this.el.root);
  }

  // ---- layout -------------------------------------------------------------

  private playerBar(pos: 'top' | 'bottom'): HTMLElement {
    return h(`div.player-bar.${pos}`,
      h('div.player-info', h('span.player-name'), h('span.presence', { hidden: true }), h('span.material')),
      h('div.clock', { role: 'timer', 'aria-live': 'off' }));
  }

  private layout(): Elements {
    const c = this.ctrl;
    const top = this.playerBar('top');
    const bottom = this.playerBar('bottom');
    const board = h('div.board', { 'aria-label': t('board'), role: 'application' });
    const input = h('input.move-input', {
      type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: false,
      placeholder: t('typeMove'), 'aria-label': t('typeMoveLabel'),
      // The text stays until the server has taken the move (ctrl.onState): a move
      // refused is still there to correct, beside the reason.
      oninput: () => input.removeAttribute('aria-invalid'),
      onkeydown: (e: KeyboardEvent) => { if (e.key === 'Enter') c.submitTyped(input.value); },
    }) as HTMLInputElement;
    const inputRow = h('div.input-row', input);
    const el: Elements = {
      root: h('main.game-screen'), top, bottom, board,
      clockWhite: h('div'), clockBlack: h('div'), // the bars' clocks, placed by renderBars
      status: h('div.status', { 'aria-live': 'polite' }),
      conn: h('div.conn', { hidden: true }, t('reconnecting')),
      moves: h('div.moves', { role: 'list', 'aria-label': t('moves'), tabindex: '0' }),
      nav: h('div.nav',
        this.navBtn('first', icon('first'), t('nav_first'), () => c.goto(0)),
        this.navBtn('previous', icon('prev'), t('nav_previous'), () => c.step(-1)),
        this.navBtn('next', icon('next'), t('nav_next'), () => c.step(1)),
        this.navBtn('last', icon('last'), t('nav_last'), () => c.goto(null))),
      input, inputRow,
      actions: h('div.actions'),
      prompt: h('div.prompt', { 'aria-live': 'assertive' }),
      share: h('div.share'),
      tools: h('div.tools',
        this.toolBtn('flip', icon('flip'), t('flip'), () => c.flip()),
        this.toolBtn('sound', icon('soundOn'), t('sound'), () => c.toggleSound()),
        this.toolBtn('zen', icon('zen'), t('zen'), () => toggleZen()),
        this.toolBtn('fullscreen', icon('fullscreen'), t('fullscreen'), () => toggleFullscreen()),
        h('a.tool', { href: pgnUrl(c.gameId), download: `outpost-${c.gameId}.pgn`, 'data-tool': 'pgn', 'aria-label': t('downloadPgn'), title: t('downloadPgn') }, 'PGN')),
      end: h('div.end-box', { hidden: true }),
      title: h('h1.sr-only.game-title'), // the page's heading: who plays whom
    };
    el.root.append(
      el.title,
      h('section.board-col', top, h('div.board-wrap', board), bottom),
      h('aside.side',
        simulLink(c.gameId), el.conn, el.status, el.end, el.prompt, c.nvui.el,
        h('div.moves-box', el.moves, el.nav),
        c.analysis.el,
        inputRow, el.actions, el.share, el.tools, reportBox('game', c.gameId)));
    return el;
  }

  private navBtn(key: string, label: HTMLElement, text: string, f: () => void) {
    return h('button.navbtn', { type: 'button', 'aria-label': text, title: text, 'data-nav': key, onclick: f }, label);
  }

  private toolBtn(name: string, ic: HTMLElement, label: string, f: () => void) {
    return h('button.tool', { type: 'button', 'data-tool': name, 'aria-label': label, title: label, onclick: f }, ic);
  }

  focusInput() { this.el.input.focus(); }

  setConn(st: SocketStatus, haveState: boolean) {
    this.el.conn.hidden = st === 'open';
    this.el.conn.textContent = st === 'connecting' && !haveState ? t('connecting') : t('reconnecting');
  }

  // ---- rendering ----------------------------------------------------------

  render(s: GameState) {
    const c = this.ctrl;
    // For tests and styles: where the game stands.
    Object.assign(this.el.root.dataset, { ply: String(s.ply), status: s.status, turn: s.turn, you: s.you, myturn: String(c.myTurn()) });
    const players = `${s.players.white.name ? playerName(s.players.white.name) : t('white')} – ${s.players.black.name ? playerName(s.players.black.name) : t('black')}`;
    document.title = `${s.status === 'ongoing' && c.myTurn() ? '● ' : ''}Outpost · ${players}`;
    if (this.el.title.textContent !== players) this.el.title.textContent = players;
    this.renderBoard(s);
    this.renderBars(s);
    this.renderStatus(s);
    this.renderMoves(s);
    const focused = document.activeElement;
    this.renderActions(s);
    // The adjournment's fields are moved, not replaced: the one typed in keeps the focus.
    if (focused instanceof HTMLElement && focused !== document.activeElement && focused.isConnected
      && Object.values(this.adjournFields).includes(focused)) focused.focus();
    this.renderShare(s);
    this.renderTools();
    c.analysis.update();
    c.nvui.show(settings.screenReader);
  }

  private renderBoard(s: GameState) {
    const c = this.ctrl;
    const live = c.viewPly === null || c.viewPly >= s.ply;
    this.el.board.classList.toggle('blindfold', settings.blindfold);
    this.el.board.parentElement?.classList.toggle('reviewing', !live);
    if (live) {
      const mine = s.status === 'ongoing' && s.you !== 'spectator';
      const movableColor = !mine ? undefined : s.you === 'both' ? s.turn : s.you === 'spectator' ? undefined : s.you;
      c.board.set({
        fen: s.fen,
        orientation: c.orientation,
        turnColor: s.turn,
        lastMove: squares(s.last_move),
        check: !!s.check,
        coordinates: settings.coordinates,
        animation: { enabled: settings.animation },
        movable: { color: movableColor, dests: c.isMine(s.turn) ? this.dests(s) : new Map(), rookCastle: true },
        premovable: { enabled: mine && s.you !== 'both' },
        highlight: { custom: new Map() },
        draggable: { enabled: true },
      });
      c.board.cg.setAutoShapes(c.analysis.shapes(s.ply)); // the engine's best move, after an analysis
      c.drawPremoves();
      return;
    }
    const ply = c.viewPly ?? s.ply;
    const pos = positionAt(s.initial_fen, s.moves, ply);
    c.board.set({
      fen: pos?.fen ?? s.initial_fen,
      orientation: c.orientation,
      turnColor: pos?.turn ?? s.turn,
      lastMove: squares(ply > 0 ? s.moves[ply - 1] : undefined),
      check: pos?.check ? pos.turn : false,
      movable: { color: undefined, dests: new Map() },
      premovable: { enabled: false },
      highlight: { custom: new Map() },
    });
    c.board.cg.setAutoShapes(c.analysis.shapes(ply));
  }

  // The server's legal moves; with a touched piece (R15) only that piece's.
  private dests(s: GameState) {
    const all = Board.dests(s.legal);
    const locked = this.ctrl.touchLock();
    return locked ? new Map([[locked, all.get(locked) ?? []]]) : all;
  }

  private renderBars(s: GameState) {
    const c = this.ctrl;
    const bottomColor = c.orientation;
    const fen = c.viewPly === null ? s.fen : positionAt(s.initial_fen, s.moves, c.viewPly)?.fen ?? s.fen;
    const mat = material(fen);
    for (const [bar, color] of [[this.el.top, opposite(bottomColor)], [this.el.bottom, bottomColor]] as const) {
      const p = s.players[color];
      const label = p.kind === 'robot'
        ? t('robotName', { level: p.level ?? '?', elo: p.elo ?? '?' })
        : (p.name ? playerName(p.name) : t(color));
      const name = bar.querySelector<HTMLElement>('.player-name');
      if (name) {
        // P21: a seat with an account links to its profile.
        // P23: a rated game's ratings once it is over: "1500? +8" (a minus sign for a loss).
        const rated = p.rating !== undefined && p.rating_diff !== undefined;
        // P23: while a rated game is played, each account's rating in its class.
        const live = !rated && s.status === 'ongoing' ? this.ratings.of(s, p.account) : null;
        const liveText = live ? `${Math.round(live.rating)}${live.provisional ? '?' : ''}` : '';
        const diff = rated ? (p.rating_diff! > 0 ? `+${p.rating_diff}` : p.rating_diff! < 0 ? `\u2212${-p.rating_diff!}` : '±0') : '';
        const rating = rated ? `${p.rating}${p.provisional ? '?' : ''}` : '';
        clear(name, h(`span.dot.${color}`, { 'aria-hidden': 'true' }),
          p.account ? h('a.player-link', { href: `#/player/${encodeURIComponent(p.account)}` }, label) : label,
          rated ? h('span.rating', { 'data-rating': String(p.rating) }, ` ${rating} `,
            h(`span.rating-diff.${p.rating_diff! > 0 ? 'up' : p.rating_diff! < 0 ? 'down' : 'same'}`, { 'data-diff': String(p.rating_diff) }, diff)) : null,
          live ? h('span.rating', { 'data-rating': String(Math.round(live.rating)) }, ` ${liveText}`) : null,
          s.you === color ? h('span.you', ` (${t('you')})`) : null);
        name.setAttribute('aria-label', `${t(color)}: ${label}${rated ? `, ${t('ratingChange', { rating, diff })}` : live ? `, ${liveText}` : ''}`);
      }
      const pres = bar.querySelector<HTMLElement>('.presence');
      if (pres) c.presence.badge(pres, color, s);
      const m = bar.querySelector<HTMLElement>('.material');
      if (m) {
        const caps = color === 'white' ? mat.white : mat.black;
        const plus = color === 'white' ? mat.diff : -mat.diff;
        clear(m, caps.map((r) => h(`span.cap.${opposite(color)}`, CAPTURED_GLYPH[r])), plus > 0 ? h('span.plus', `+${plus}`) : null);
        m.setAttribute('aria-label', plus > 0 ? t('materialUp', { n: plus }) : '');
      }
      const clock = bar.querySelector<HTMLElement>('.clock');
      if (clock) {
        clock.dataset.color = color;
        clock.setAttribute('aria-label', t('clockOf', { side: t(color) }));
        if (color === 'white') this.el.clockWhite = clock; else this.el.clockBlack = clock;
      }
      bar.classList.toggle('to-move', s.status === 'ongoing' && s.turn === color);
    }
    c.clocks.els = { white: this.el.clockWhite, black: this.el.clockBlack };
    c.clocks.render();
  }

  private renderStatus(s: GameState) {
    const c = this.ctrl;
    let text = '';
    if (s.status !== 'ongoing') text = '';
    else if (s.you === 'spectator') text = t('toMove', { side: t(s.turn) });
    else if (c.myTurn()) text = s.you === 'both' ? t('toMove', { side: t(s.turn) }) : t('yourTurn');
    else if (s.adjournment && !s.adjournment.resumed_at) text = t('adjourned'); // a sealed move waits: nobody is to move
    else text = s.players[s.turn].kind === 'robot' ? t('robotThinking') : t('waitingOpponent');
    this.el.status.classList.toggle('over', s.status !== 'ongoing');
    const tc = s.clock?.time_control;
    const cls = s.clock?.class ?? '';
    // The robot takes a person's time at casual levels: say that it is thinking, visibly.
    const thinking = s.status === 'ongoing' && !c.myTurn() && s.you !== 'spectator' && s.players[s.turn].kind === 'robot';
    const locked = c.touchLock();
    clear(this.el.status, text ? h('div.status-text', { class: thinking ? 'thinking' : '', 'data-thinking': thinking ? 'true' : undefined }, text) : null,
      locked ? h('div.touch-note', { 'data-touch': locked }, t('touchMoveMust', { piece: c.touchWords(locked) })) : null, h('div.meta',
      [s.variant === 'chess960' ? t('chess960N', { n: s.chess960 ?? '' }) : t('standard'),
        tc && tc !== '-' ? `${formatTc(tc)}${isTimeClass(cls) ? ` · ${t(`class_${cls}`)}` : ''}` : t('unlimited'),
        s.rated ? t('rated') : '', // P23: a rated game says so while it is played
        c.touchMove ? t('touchMoveActive') : ''].filter(Boolean).join(' · ')));
  }

  private renderMoves(s: GameState) {
    const c = this.ctrl;
    const { number, blackFirst } = startOf(s.initial_fen);
    const cur = c.viewPly ?? s.ply;
    const rows: HTMLElement[] = [];
    let row: HTMLElement | null = null;
    for (let i = 0; i < s.san.length; i++) {
      const white = c.sideOfPly(i) === 'white';
      if (white || !row) {
        const n = number + Math.floor((i + (blackFirst ? 1 : 0)) / 2);
        row = h('div.move-row', { role: 'listitem' }, h('span.num', `${n}.`));
        rows.push(row);
        if (!white) row.append(h('span.mv.empty', '…'));
      }
      const mark = c.analysis.markOf(i + 1); // after an analysis: ?!, ? and ?? in colour, and in words
      row.append(h('button.mv', {
        type: 'button', class: [i + 1 === cur ? 'active' : '', mark ? `mark-${mark}` : ''].join(' ').trim(), 'data-ply': String(i + 1),
        'data-mark': mark ?? undefined,
        // The label begins with what the button shows (WCAG 2.5.3), then the move in words, then its mark.
        'aria-label': `${displaySan(s.san[i], white)}: ${describeMove(s.moves[i], s.san[i], white)}${mark ? `, ${t(`mark_${mark}`)}` : ''}`,
        onclick: () => c.goto(i + 1 === s.ply ? null : i + 1),
      }, displaySan(s.san[i], white), mark ? h('span.glyph', { 'aria-hidden': 'true' }, c.analysis.glyph(mark)) : null));
    }
    if (s.status !== 'ongoing' && s.result && s.result !== '*') rows.push(h('div.result', s.result.replace(/1\/2/g, '½')));
    clear(this.el.moves, rows);
    const active = this.el.moves.querySelector<HTMLElement>('.mv.active');
    if (active && c.viewPly !== null) active.scrollIntoView({ block: 'nearest' });
    else this.el.moves.scrollTop = this.el.moves.scrollHeight;
    this.el.nav.classList.toggle('reviewing', c.viewPly !== null && c.viewPly < s.ply);
  }

  private btn(label: string, action: string, f: () => void, cls = '') {
    return h(`button.action${cls ? '.' + cls : ''}`, { type: 'button', 'data-action': action, onclick: f }, label);
  }

  private pgnLink(s: GameState) {
    return h('a.action', { href: pgnUrl(s.id), download: `outpost-${s.id}.pgn`, 'data-action': 'pgn' }, t('downloadPgn'));
  }

  private readonly adjournFields = adjournFields();
  // The ply at which each side's last draw offer was seen: the server refuses another
  // within DRAW_OFFER_INTERVAL plies (the button would only fail).
  private offeredAt: Record<Color, number> = { white: -Infinity, black: -Infinity };
  private lastOffer: Color | null = null;

  private noteOffer(s: GameState) {
    if (s.draw_offer && s.draw_offer !== this.lastOffer) this.offeredAt[s.draw_offer] = s.ply;
    this.lastOffer = s.draw_offer;
  }

  private renderActions(s: GameState) {
    const c = this.ctrl;
    const A = this.el.actions;
    const P = this.el.prompt;
    clear(A); clear(P);
    this.el.inputRow.querySelector('.claim-move')?.remove();
    this.el.end.hidden = true;
    const me = c.actingSide();
    this.el.inputRow.hidden = me === null || s.status !== 'ongoing';
    const adjourned = adjournmentBox(s, c, me, this.adjournFields);
    if (adjourned) P.append(adjourned);
    if (me === null) {
      if (s.status !== 'ongoing') {
        this.el.end.hidden = false;
        clear(this.el.end, h('div.end-text', endText(s)), h('div.end-buttons', c.analysis.button(), this.pgnLink(s)));
      }
      return;
    }
    if (s.status !== 'ongoing') { this.renderEnd(s, me); return; }
    const opp = opposite(me);
    const hotseat = s.you === 'both';
    // Offers and requests waiting for an answer: only the side they were made to
    // answers them (in a same-device game, the side to move, when the other side made it).
    if (s.draw_offer === opp) {
      P.append(h('div.offer', h('span', t('drawOffered', { side: t(opp) })),
        this.btn(t('accept'), 'draw-accept', () => c.send({ t: 'draw', action: 'accept' }), 'yes'),
        this.btn(t('decline'), 'draw-decline', () => c.send({ t: 'draw', action: 'decline' }), 'no')));
    }
    if (s.takeback_request === opp) {
      P.append(h('div.offer', h('span', t('takebackRequested', { side: t(opp) })),
        this.btn(t('accept'), 'takeback-accept', () => c.send({ t: 'takeback', action: 'accept' }), 'yes'),
        this.btn(t('decline'), 'takeback-decline', () => c.send({ t: 'takeback', action: 'decline' }), 'no')));
    }
    if (c.confirmingResign) {
      P.append(h('div.offer', h('span', t('confirmResign')),
        this.btn(t('resign'), 'resign-confirm', () => c.confirmResign(true), 'no'),
        this.btn(t('cancel'), 'resign-cancel', () => c.confirmResign(false))));
    }
    // An invitation not yet opened is called off by the button beside its link.
    if (s.can_abort && !(s.awaiting_friend && inviteFor(s.id))) A.append(this.btn(t('abort'), 'abort', () => c.send({ t: 'abort' })));
    else A.append(this.btn(t('resign'), 'resign', () => c.resign()));
    this.noteOffer(s);
    if (s.draw_offer === me) A.append(h('span.pending', t('drawOfferSent')));
    else if (s.draw_offer !== opp && s.ply - this.offeredAt[me] >= DRAW_OFFER_INTERVAL)
      A.append(this.btn(t('offerDraw'), 'draw-offer', () => c.send({ t: 'draw', action: 'offer' })));
    for (const claim of s.claimable ?? []) {
      if (!isClaim(claim)) continue;
      A.append(this.btn(t(claim === 'fifty-moves' ? 'claimFifty' : 'claimThreefold'), `claim-${claim}`, () => c.send({ t: 'claim', claim }), 'claim'));
    }
    // A takeback takes back one's own last move: none yet, nothing to ask for.
    // The moves of a PGN the game started from are nobody's (issue 28).
    const first = s.pgn_plies ?? 0;
    if (hotseat ? s.ply > first : s.moves.some((_, i) => i >= first && c.sideOfPly(i) === me)) {
      if (s.takeback_request === me) A.append(h('span.pending', t('takebackSent')));
      else if (s.takeback_request !== opp) A.append(this.btn(t('takeback'), 'takeback', () => c.send({ t: 'takeback', action: 'request' })));
    }
    // Extra time for the opponent: not in a same-device game, nor where a move has
    // days (15 s would be nothing).
    const cls = s.clock?.class;
    if (s.clock && cls !== 'unlimited' && cls !== 'correspondence' && !hotseat) {
      A.append(this.btn(t('giveTime'), 'give-time', () => c.send({ t: 'give_time', seconds: 15 })));
    }
    // P22: the opponent, to move, has gone: the claim's countdown, then its buttons.
    if (!hotseat && s.turn === opp && s.presence && s.presence.claim_in_ms !== null) {
      const note = h('div.claim-note', { 'data-claim-note': '' });
      c.presence.claimNote(note);
      P.append(note);
      if (c.presence.claimReady()) {
        A.append(this.btn(t('claimAbandonWin'), 'claim-abandonment-win', () => c.send({ t: 'claim', claim: 'abandonment-win' }), 'claim'),
          this.btn(t('claimAbandonDraw'), 'claim-abandonment-draw', () => c.send({ t: 'claim', claim: 'abandonment-draw' }), 'claim'));
      }
    }
    if (c.myTurn()) this.renderClaimWithMove();
    if (cls === 'correspondence' && !hotseat) { const n = notifyToggle(this.ctrl.redraw); if (n) A.append(n); }
  }

  // R9/R10: a draw claimed together with the move that produces it (P9).
  private renderClaimWithMove() {
    const c = this.ctrl;
    const sel = h('select.claim-with-move', {
      'aria-label': t('claimWithMove'), 'aria-describedby': 'claim-with-move-help', 'data-action': 'claim-with-move',
      onchange: (e: Event) => { const v = (e.target as HTMLSelectElement).value; c.setClaimWithMove(isClaim(v) ? v : ''); },
    }, h('option', { value: '' }, t('claimWithMoveNone')),
    CLAIMS.map(([v, key]) => h('option', { value: v }, t(key)))) as HTMLSelectElement;
    sel.value = c.claimWithMove;
    // Folded: a casual player rarely needs it, and the words say what it is for.
    const fold = h('details.claim-move', { open: this.claimOpen || c.claimWithMove !== '' || undefined },
      h('summary', t('claimWithMove')),
      h('p.hint', { id: 'claim-with-move-help' }, t('claimWithMoveHelp')),
      sel) as HTMLDetailsElement;
    fold.addEventListener('toggle', () => { this.claimOpen = fold.open; }); // stays as the player left it
    this.el.inputRow.append(fold);
  }

  private renderEnd(s: GameState, me: Color) {
    const c = this.ctrl;
    const box = this.el.end;
    box.hidden = false;
    const r = s.rematch;
    const rematchBtn = r?.offered_by && r.offered_by !== me && s.you !== 'both'
      ? this.btn(t('acceptRematch'), 'rematch-accept', () => c.send({ t: 'rematch', action: 'accept' }), 'primary')
      : r?.offered_by && r.offered_by === me && s.you !== 'both'
        ? h('span.pending', t('rematchSent'))
        : this.btn(t('rematch'), 'rematch', () => c.send({ t: 'rematch', action: 'offer' }), 'primary');
    clear(box, h('div.end-text', endText(s)),
      h('div.end-buttons', rematchBtn,
        this.btn(t('newGame'), 'new-game', () => { location.hash = '#/'; }),
        c.analysis.button(),
        this.pgnLink(s)));
  }

  // P21: an anonymous player's name, asked where they play (the invite link's player
  // has seen no form before); made once so that typing survives the next state.
  private nameInput = h('input', { type: 'text', maxlength: '40', 'data-field': 'player-name', autocomplete: 'nickname' }) as HTMLInputElement;
  private nameForm = h('form.name-row', { 'data-form': 'player-name', onsubmit: (e: Event) => { e.preventDefault(); this.ctrl.setName(this.nameInput.value); } },
    h('label', t('yourName'), ' ', this.nameInput), ' ', h('button.small-btn', { type: 'submit' }, t('nameSave')));

  private renderName(s: GameState) {
    const me = s.you === 'white' || s.you === 'black' ? s.players[s.you] : null;
    const show = !!me && me.kind === 'human' && !me.account && s.status === 'ongoing';
    if (!this.nameForm.isConnected) this.el.share.after(this.nameForm);
    this.nameForm.hidden = !show;
    if (show && document.activeElement !== this.nameInput) this.nameInput.value = me!.name && me!.name !== 'Anonymous' ? me!.name : '';
  }

  private opponentCame = false;

  private renderShare(s: GameState) {
    this.renderName(s);
    const base = `${location.origin}${location.pathname}`;
    const items: HTMLElement[] = [];
    const invite = inviteFor(s.id);
    // The invitation is for an opponent who has not come yet: once seen, it goes.
    const opp = s.you === 'white' ? 'black' : s.you === 'black' ? 'white' : null;
    const seen = !!opp && !!s.presence && s.presence[opp].state !== 'gone';
    const first = s.pgn_plies ?? 0;
    if (opp && (seen || s.moves.some((_, i) => i >= first && this.ctrl.sideOfPly(i) === opp))) this.opponentCame = true;
    const inviting = !!invite && s.status === 'ongoing' && !this.opponentCame;
    // Issue 28 (1): the creator of an invitation is told in words that the game waits
    // for the friend, beside the link and a way to call it off.
    if (inviting && s.awaiting_friend) items.push(h('p.waiting-friend', { role: 'status', 'data-state': 'waiting-friend' }, t('waitingFriend')));
    if (inviting) items.push(this.copyRow(t('inviteLink'), `${base}#/game/${s.id}?seat=${encodeURIComponent(invite!)}`, 'invite'));
    if (inviting && s.awaiting_friend && s.can_abort)
      items.push(this.btn(t('cancelInvite'), 'cancel-invite', () => this.ctrl.send({ t: 'abort' })));
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
    const b = this.el.tools.querySelector<HTMLElement>('[data-tool=sound]');
    if (!b) return;
    clear(b, icon(settings.sound ? 'soundOn' : 'soundOff'));
    b.setAttribute('aria-pressed', String(settings.sound));
    b.title = settings.sound ? t('soundOn') : t('soundOff');
  }
}

// P18: a board of a simul links back to the simul (known from the seat this device keeps).
function simulLink(gameId: string): HTMLElement | null {
  const simul = seatFor(gameId)?.simul;
  return simul ? h('a.simul-back', { href: `#/simul/${encodeURIComponent(simul)}`, 'data-action': 'back-to-simul' }, t('simulBack')) : null;
}
