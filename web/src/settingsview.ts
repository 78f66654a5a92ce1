// The settings dialog (P4, P7 premove queue, P9 resign confirmation, P15-P17).
import { h } from './dom';
import { LANGUAGES, currentLang, t } from './i18n';
import { onSettings, setSetting, settings, type Settings } from './settings';
import { speechAvailable } from './speech';

export function openSettings(onLang: () => void) {
  const check = (key: keyof Settings, label: string) => h('label.check', h('input', {
    type: 'checkbox', checked: !!settings[key], 'data-setting': key,
    onchange: (e: Event) => setSetting(key, (e.target as HTMLInputElement).checked as never),
  }), ' ', label);
  const lang = h('select', { 'data-setting': 'lang', onchange: (e: Event) => { setSetting('lang', (e.target as HTMLSelectElement).value); dlg.close(); onLang(); } },
    LANGUAGES.map((l) => h('option', { value: l.code, lang: l.code }, l.name === l.latin ? l.name : `${l.name} · ${l.latin}`))) as HTMLSelectElement;
  lang.value = currentLang();
  // Speech is feature-detected: without a voice for the language, say so here.
  const noVoice = h('p.hint', { 'data-hint': 'no-voice', role: 'note' }, t('speechNoVoice'));
  const showNoVoice = () => { noVoice.hidden = !(settings.speak && !speechAvailable()); };
  const offSettings = onSettings(showNoVoice);
  showNoVoice();
  const dlg = h('dialog.settings', { 'aria-label': t('settings') },
    h('h2', t('settings')),
    h('label.block', t('language'), lang),
    check('sound', t('settingsSound')),
    check('confirmResign', t('settingsConfirmResign')),
    check('premoveQueue', t('settingsPremoveQueue')),
    check('coordinates', t('settingsCoordinates')),
    check('animation', t('settingsAnimation')),
    check('figurine', t('settingsFigurine')),
    check('autoFlip', t('settingsAutoFlip')),
    check('blindfold', t('settingsBlindfold')),
    check('speak', t('settingsSpeak')),
    noVoice,
    check('phonetic', t('settingsPhonetic')),
    check('screenReader', t('srMode')),
    check('highContrast', t('settingsHighContrast')),
    h('div.dialog-buttons', h('button.primary', { type: 'button', 'data-action': 'close-settings', onclick: () => dlg.close() }, t('close')))) as HTMLDialogElement;
  dlg.addEventListener('close', () => { offSettings(); dlg.remove(); });
  document.body.append(dlg);
  dlg.showModal();
}
