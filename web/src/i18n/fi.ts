// Suomi. Main screen and game screen; the rest falls back to English.
// Piece letters (FIDE C.3): K kuningas, D daami, T torni, L lähetti, R ratsu.
import type { Key } from './en';
const fi: Partial<Record<Key, string>> = {
  play: 'Pelaa', playAgainst: 'Vastustaja', newGame: 'Uusi peli', myGames: 'Omat pelit', settings: 'Asetukset',
  language: 'Kieli', opponent: 'Vastustaja', opp_robot: 'Robotti', opp_hotseat: 'Samalla laitteella',
  opp_invite: 'Kutsu ystävä', color: 'Värisi', white: 'Valkea', black: 'Musta', random: 'Satunnainen',
  level: 'Robotin taso', levelN: 'Taso {level}', customElo: 'Oma Elo-luku', timeControl: 'Aikarajoitus',
  custom: 'Mukautettu', minutes: 'Minuutit', increment: 'Lisäaika (s)',
  class_bullet: 'Bullet', class_blitz: 'Salamashakki', class_rapid: 'Pikashakki', class_standard: 'Pitkä peli',
  class_correspondence: 'Kirjeshakki', class_unlimited: 'Rajoittamaton', unlimited: 'Ei kelloa',
  variant: 'Muunnelma', standard: 'Tavallinen shakki', startPosition: 'Aloita asemasta',
  startPositionHint: 'Liitä FEN tai PGN', casual: 'Rento peli', yourName: 'Nimesi (valinnainen)',
  moreOptions: 'Lisää valintoja', starting: 'Aloitetaan…', moves: 'Siirrot',
  tagline: 'Pelaa shakkia robottia, vieressäsi istuvaa ystävää tai ketä tahansa vastaan linkin kautta.',
  yourTurn: 'Sinun vuorosi', toMove: '{side} siirtää', robotThinking: 'Robotti miettii…',
  waitingOpponent: 'Odotetaan vastustajaa…', resign: 'Luovuta', confirmResign: 'Luovutetaanko varmasti?',
  cancel: 'Peruuta', abort: 'Keskeytä', offerDraw: 'Tarjoa tasapeliä', drawOffered: '{side} tarjoaa tasapeliä',
  accept: 'Hyväksy', decline: 'Hylkää', takeback: 'Peru siirto', rematch: 'Uusintapeli', flip: 'Käännä lauta',
  sound: 'Äänet', zen: 'Zen-tila', fullscreen: 'Koko näyttö', downloadPgn: 'Lataa PGN', copy: 'Kopioi',
  copied: 'Kopioitu', you: 'sinä', reconnecting: 'Yhteys katkesi, yhdistetään uudelleen…',
  inviteLink: 'Lähetä tämä linkki vastustajallesi', watchLink: 'Linkki katsojille',
  piece_king: 'kuningas', piece_queen: 'daami', piece_rook: 'torni', piece_bishop: 'lähetti',
  piece_knight: 'ratsu', piece_pawn: 'sotilas', sayMove: '{side}: {piece} {from}–{to}',
  sayCapture: '{side}: {piece} {from}x{to}', sayCastleShort: '{side}: lyhyt linnoitus',
  sayCastleLong: '{side}: pitkä linnoitus', sayCheck: 'shakki', sayMate: 'matti',
  end_checkmate: '{winner} voittaa matilla', end_resignation: '{winner} voittaa: {loser} luovutti',
  end_timeout: '{winner} voittaa ajalla', end_stalemate: 'Tasapeli: patti',
  end_agreement: 'Tasapeli sopimuksella', end_aborted: 'Peli keskeytetty',
  'end_threefold-repetition': 'Tasapeli: sama asema kolmesti', 'end_fifty-moves': 'Tasapeli: 50 siirron sääntö',
  noGames: 'Ei vielä pelejä. Aloita painamalla Pelaa.', robotName: 'Robotti, taso {level} ({elo})',
};
export default fi;
