// R18/P19: adjourned games on the game screen (docs/protocol.md, "Adjournment"). At
// their turn, in a game created with the option, a player writes a move for the
// envelope and seals it; the server keeps it from everyone until the game resumes.
// Both players then see when it resumes: one proposes a time, the other accepts it.
import { h } from '../dom';
import { dateTime, t } from '../i18n';
import type { Color, GameState } from '../types';
import type { RoundCtrl } from './ctrl';

const when = (iso: string | null | undefined) => (iso ? dateTime(new Date(iso)) : '');

// A local date-time input's value ("2026-11-25T18:00") as the UTC text the server reads.
export function toUtcIso(local: string): string | null {
  const d = new Date(local);
  return isNaN(d.getTime()) ? null : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// The box's text fields, made once per game screen: a state that comes while one is
// being typed in (a presence change, an offer) must not replace it.
export interface AdjournFields { seal: HTMLInputElement; resumeAt: HTMLInputElement }
export function adjournFields(): AdjournFields {
  return {
    seal: h('input.seal-input', { type: 'text', maxlength: '16', autocomplete: 'off', spellcheck: false,
      'data-field': 'sealed-move', 'aria-label': t('sealMoveLabel'), placeholder: t('sealMoveLabel') }) as HTMLInputElement,
    resumeAt: h('input', { type: 'datetime-local', step: '1', 'data-field': 'resume-at', 'aria-label': t('proposeResume') }) as HTMLInputElement,
  };
}

export function adjournmentBox(s: GameState, c: RoundCtrl, me: Color | null, fields: AdjournFields): HTMLElement | null {
  const a = s.adjournment;
  const btn = (label: string, action: string, f: () => void) => h('button.action', { type: 'button', 'data-action': action, onclick: f }, label);
  if (a && !a.resumed_at) {
    fields.seal.value = ''; // sealed: the envelope is closed
    const rows: Array<HTMLElement | null> = [
      h('div.adjourned-text', t('adjournedBy', { side: t(a.sealed_by), time: when(a.sealed_at) })),
      h('div.resume-at', { 'data-resume': a.resume_at ?? '' }, a.resume_at ? t('resumesAt', { time: when(a.resume_at) }) : t('resumeNotAgreed')),
    ];
    if (a.proposal) rows.push(h('div.resume-proposal', t('resumeProposed', { side: t(a.proposal.by), time: when(a.proposal.at) })));
    if (me !== null && s.status === 'ongoing') {
      if (a.proposal && (a.proposal.by !== me || s.you === 'both'))
        rows.push(btn(t('accept'), 'resume-accept', () => c.send({ t: 'resume', action: 'accept' })));
      const input = fields.resumeAt;
      rows.push(h('div.resume-propose', input, btn(t('proposeResume'), 'resume-propose', () => {
        const at = toUtcIso(input.value);
        if (at) c.send({ t: 'resume', at });
      })));
    }
    return h('div.adjournment', { 'data-adjourned': 'true' }, rows);
  }
  if (a && a.sealed_move) return h('div.adjournment', { 'data-adjourned': 'false' }, t('sealedMoveWas', { side: t(a.sealed_by), move: a.sealed_move }));
  if (s.adjournable && !a && s.status === 'ongoing' && c.myTurn()) {
    const input = fields.seal;
    return h('div.adjournment.seal', input, btn(t('sealMove'), 'seal', () => {
      const move = input.value.trim();
      if (move) c.send({ t: 'seal', move });
    }));
  }
  return null;
}
