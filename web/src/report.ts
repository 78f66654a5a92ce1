// A player's report (SPEC D9): "Report" on a game and on a profile, with a reason, sent
// to POST /api/v1/reports for the administrators (the admin page, #/admin). A
// disclosure (<details>): opened with the keyboard like a button, the form inside it
// has a labelled field and says what became of the report in a live region. Shown only
// to signed-in players (the server refuses the others).
import { ApiError } from './api';
import { account } from './account';
import { h } from './dom';
import { errorText, t } from './i18n';

export function reportBox(kind: 'game' | 'player', target: string): HTMLElement | null {
  if (!account() || (kind === 'player' && account()!.name.toLowerCase() === target.toLowerCase())) return null;
  const id = `report-${kind}-reason`;
  const reason = h('textarea', { id, name: 'reason', rows: 3, maxlength: 500, required: true }) as HTMLTextAreaElement;
  const status = h('p.form-status', { role: 'status' });
  const send = h('button.small-btn', { type: 'submit', 'data-action': 'report-send' }, t('reportSend')) as HTMLButtonElement;
  const form = h('form.report-form', {
    onsubmit: async (e: Event) => {
      e.preventDefault();
      send.disabled = true;
      status.textContent = '';
      try {
        const res = await fetch('/api/v1/reports', {
          method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ v: 1, kind, target, reason: reason.value }),
        });
        const body = await res.json().catch(() => ({}));
        if (!res.ok) throw new ApiError(body.code ?? 'http', body.message ?? `${res.status}`);
        reason.value = '';
        status.textContent = t('reportSent');
      } catch (err) {
        status.textContent = err instanceof ApiError ? errorText(err.code, err.message) : t('err_http');
      } finally {
        send.disabled = false;
      }
    },
  }, h('label.block', { for: id }, t('reportReason'), reason), send, status);
  return h('details.report-box', { 'data-report': kind },
    h('summary', kind === 'game' ? t('reportGameHelp') : t('reportPlayerHelp')), form);
}
