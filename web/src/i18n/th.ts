// ไทย. Main screen only, NOT YET REVIEWED by a native speaker: please check before
// relying on it. Everything else falls back to English.
import type { Key } from './en';
const th: Partial<Record<Key, string>> = {
  play: 'เล่น', newGame: 'เกมใหม่', myGames: 'เกมของฉัน', settings: 'การตั้งค่า', language: 'ภาษา',
  opponent: 'คู่แข่ง', opp_robot: 'คอมพิวเตอร์', opp_hotseat: 'อุปกรณ์เดียวกัน', opp_invite: 'เชิญเพื่อน',
  color: 'สีของคุณ', white: 'ฝ่ายขาว', black: 'ฝ่ายดำ', random: 'สุ่ม', level: 'ระดับของคอมพิวเตอร์',
  levelN: 'ระดับ {level}', approxElo: 'ประมาณ {elo} Elo', timeControl: 'การควบคุมเวลา', custom: 'กำหนดเอง',
  minutes: 'นาที', class_unlimited: 'ไม่จำกัดเวลา', unlimited: 'ไม่จับเวลา', standard: 'มาตรฐาน',
  startPosition: 'เริ่มจากตำแหน่งที่กำหนด', yourName: 'ชื่อของคุณ (ไม่บังคับ)', moreOptions: 'ตัวเลือกเพิ่มเติม',
  tagline: 'เล่นหมากรุกสากลกับคอมพิวเตอร์ เพื่อนที่อยู่ข้าง ๆ หรือใครก็ได้ผ่านลิงก์',
  yourTurn: 'ตาของคุณ', toMove: '{side}เดิน', resign: 'ยอมแพ้', offerDraw: 'ขอเสมอ', accept: 'ยอมรับ',
  decline: 'ปฏิเสธ', cancel: 'ยกเลิก', rematch: 'เล่นอีกครั้ง', flip: 'กลับด้านกระดาน', sound: 'เสียง',
  fullscreen: 'เต็มจอ', downloadPgn: 'ดาวน์โหลด PGN', copy: 'คัดลอก',
  end_checkmate: '{winner}ชนะด้วยการรุกจน', end_timeout: '{winner}ชนะเพราะอีกฝ่ายหมดเวลา',
  end_agreement: 'เสมอโดยการตกลง', noGames: 'ยังไม่มีเกม กด เล่น เพื่อเริ่ม',
};
export default th;
