// मराठी. Main screen only, NOT YET REVIEWED by a native speaker: please check before
// relying on it. Everything else falls back to English.
import type { Key } from './en';
const mr: Partial<Record<Key, string>> = {
  play: 'खेळा', newGame: 'नवीन डाव', myGames: 'माझे डाव', settings: 'सेटिंग्ज', language: 'भाषा',
  opponent: 'प्रतिस्पर्धी', opp_robot: 'संगणक', opp_hotseat: 'याच उपकरणावर', opp_invite: 'मित्राला आमंत्रण द्या',
  color: 'तुमचा रंग', white: 'पांढरा', black: 'काळा', level: 'संगणकाची पातळी', levelN: 'पातळी {level}',
  approxElo: 'सुमारे {elo} Elo', timeControl: 'वेळ नियंत्रण', minutes: 'मिनिटे', unlimited: 'घड्याळ नाही',
  standard: 'मानक', yourName: 'तुमचे नाव (ऐच्छिक)', moreOptions: 'अधिक पर्याय',
  tagline: 'संगणक, शेजारी बसलेला मित्र किंवा लिंकद्वारे कोणाशीही बुद्धिबळ खेळा.',
  yourTurn: 'तुमची चाल', toMove: '{side} ची चाल', offerDraw: 'बरोबरीचा प्रस्ताव', accept: 'स्वीकारा',
  decline: 'नाकारा', cancel: 'रद्द करा', flip: 'पट उलटा', sound: 'आवाज', fullscreen: 'पूर्ण स्क्रीन',
  downloadPgn: 'PGN डाउनलोड करा', copy: 'कॉपी करा',
  end_checkmate: '{winner} शहमात करून जिंकला', end_agreement: 'सहमतीने बरोबरी',
  noGames: 'अजून एकही डाव नाही. सुरू करण्यासाठी खेळा दाबा.',
};
export default mr;
