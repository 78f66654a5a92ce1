// 中文（简体）. Main screen and game screen; the rest falls back to English.
import type { Key } from './en';
const zh: Partial<Record<Key, string>> = {
  play: '开始对局', playAgainst: '对手', newGame: '新对局', myGames: '我的对局', settings: '设置', language: '语言',
  opponent: '对手', opp_robot: '电脑', opp_hotseat: '同一设备', opp_invite: '邀请好友', color: '你的颜色',
  white: '白方', black: '黑方', random: '随机', level: '电脑等级', levelN: '{level} 级', approxElo: '约 {elo} 等级分',
  customElo: '自定义等级分', timeControl: '用时', custom: '自定义', minutes: '分钟', increment: '每步加秒',
  class_bullet: '子弹棋', class_blitz: '超快棋', class_rapid: '快棋', class_standard: '慢棋',
  class_correspondence: '通讯棋', class_unlimited: '不限时', unlimited: '不计时', variant: '变体', standard: '标准',
  chess960: '960 国际象棋', startPosition: '从指定局面开始', startPositionHint: '粘贴 FEN 或 PGN', casual: '休闲',
  yourName: '你的名字（可选）', moreOptions: '更多选项', starting: '正在开始…', moves: '着法',
  tagline: '与电脑、身边的朋友或通过链接与任何人下国际象棋。',
  yourTurn: '轮到你走', toMove: '{side}走棋', robotThinking: '电脑正在思考…', waitingOpponent: '等待对手…',
  resign: '认输', confirmResign: '确定认输吗？', cancel: '取消', abort: '中止', offerDraw: '提和',
  drawOffered: '{side}提议和棋', accept: '接受', decline: '拒绝', takeback: '悔棋', rematch: '再来一局',
  flip: '翻转棋盘', sound: '声音', zen: '禅模式', fullscreen: '全屏', downloadPgn: '下载 PGN', copy: '复制',
  copied: '已复制', you: '你', reconnecting: '连接中断，正在重新连接…', inviteLink: '把这个链接发给你的对手',
  watchLink: '观战链接', piece_king: '王', piece_queen: '后', piece_rook: '车', piece_bishop: '象',
  piece_knight: '马', piece_pawn: '兵', sayMove: '{side}{piece} {from} 到 {to}', sayCapture: '{side}{piece} {from} 吃 {to}',
  sayCastleShort: '{side}短易位', sayCastleLong: '{side}长易位', sayCheck: '将军', sayMate: '将死',
  end_checkmate: '{winner}将死对手获胜', end_resignation: '{loser}认输，{winner}获胜', end_timeout: '{winner}超时获胜',
  end_stalemate: '逼和', end_agreement: '双方同意和棋', end_aborted: '对局已中止',
  'end_threefold-repetition': '三次重复局面，和棋', 'end_fifty-moves': '五十回合规则，和棋',
  noGames: '还没有对局。点击“开始对局”开始。', robotName: '电脑 {level} 级（{elo}）',
};
export default zh;
