-- The schema of every table as the server made it before schema versions (user_version 0):
-- 'outpost serve' on an empty file, then sqlite3 .schema. The migration test starts from it.
CREATE TABLE games (
  id TEXT PRIMARY KEY,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
  white_token TEXT NOT NULL, black_token TEXT NOT NULL,
  white_kind TEXT NOT NULL, black_kind TEXT NOT NULL,
  white_name TEXT NOT NULL, black_name TEXT NOT NULL,
  robot_level INTEGER NOT NULL, robot_elo INTEGER NOT NULL,
  time_control TEXT NOT NULL, variant TEXT NOT NULL, chess960 INTEGER NOT NULL,
  initial_fen TEXT NOT NULL, casual INTEGER NOT NULL,
  status TEXT NOT NULL, result TEXT NOT NULL,
  draw_offer TEXT NOT NULL, takeback_request TEXT NOT NULL, offer_plies TEXT NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL,
  running TEXT NOT NULL, turn_started_ms INTEGER NOT NULL,
  rematch_of TEXT NOT NULL, rematch_game TEXT NOT NULL,
  rematch_white_token TEXT NOT NULL DEFAULT '', rematch_black_token TEXT NOT NULL DEFAULT '',
  client TEXT NOT NULL DEFAULT ''
, white_account INTEGER, black_account INTEGER, adjournable INTEGER NOT NULL DEFAULT 0, adjournment TEXT NOT NULL DEFAULT '', deadline_ms INTEGER NOT NULL DEFAULT 0, arbiter_resume_ms INTEGER NOT NULL DEFAULT 0, first_move TEXT NOT NULL DEFAULT '');
CREATE INDEX games_status ON games(status);
CREATE INDEX games_white_token ON games(white_token);
CREATE INDEX games_black_token ON games(black_token);
CREATE TABLE moves (
  game_id TEXT NOT NULL, ply INTEGER NOT NULL, uci TEXT NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL, at_ms INTEGER NOT NULL,
  clock_ms INTEGER NOT NULL DEFAULT -2,
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE analyses (
  game_id TEXT PRIMARY KEY, settings TEXT NOT NULL, json TEXT NOT NULL, created_ms INTEGER NOT NULL
);
CREATE TABLE ratings (
  account_id INTEGER NOT NULL, class TEXT NOT NULL,
  rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
  games INTEGER NOT NULL, last_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, class)
) WITHOUT ROWID;
CREATE TABLE rating_history (
  game_id TEXT NOT NULL, color TEXT NOT NULL, account_id INTEGER NOT NULL, class TEXT NOT NULL,
  at_ms INTEGER NOT NULL, before INTEGER NOT NULL, provisional INTEGER NOT NULL, diff INTEGER NOT NULL,
  rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,
  PRIMARY KEY (game_id, color)
) WITHOUT ROWID;
CREATE INDEX rating_history_account ON rating_history(account_id, at_ms);
CREATE INDEX games_white_account ON games(white_account) WHERE white_account IS NOT NULL;
CREATE INDEX games_black_account ON games(black_account) WHERE black_account IS NOT NULL;
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  admin INTEGER NOT NULL DEFAULT 0, disabled INTEGER NOT NULL DEFAULT 0,
  created_ms INTEGER NOT NULL
);
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE TABLE simuls (
  id TEXT PRIMARY KEY,
  host_account INTEGER NOT NULL,
  status TEXT NOT NULL,
  updated_ms INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX simuls_status ON simuls(status, updated_ms);
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL, organiser INTEGER NOT NULL, organiser_name TEXT NOT NULL,
  system TEXT NOT NULL, rounds INTEGER NOT NULL, time_control TEXT NOT NULL,
  rated INTEGER NOT NULL, online INTEGER NOT NULL, tiebreaks TEXT NOT NULL,
  initial_colour TEXT NOT NULL, created_ms INTEGER NOT NULL,
  current_round INTEGER NOT NULL, round_starts TEXT NOT NULL
);
CREATE TABLE event_players (
  event_id INTEGER NOT NULL REFERENCES events(id), start_rank INTEGER NOT NULL,
  account_id INTEGER NOT NULL, name TEXT NOT NULL, rating INTEGER NOT NULL,
  withdrawn_from INTEGER NOT NULL, joined_in INTEGER NOT NULL, byes TEXT NOT NULL,
  PRIMARY KEY (event_id, start_rank)
);
CREATE TABLE event_boards (
  event_id INTEGER NOT NULL REFERENCES events(id), round INTEGER NOT NULL, board INTEGER NOT NULL,
  white INTEGER NOT NULL, black INTEGER NOT NULL, game_id TEXT NOT NULL,
  white_token TEXT NOT NULL, black_token TEXT NOT NULL, result TEXT NOT NULL, note TEXT NOT NULL,
  PRIMARY KEY (event_id, round, board)
);
