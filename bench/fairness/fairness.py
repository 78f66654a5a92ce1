#!/usr/bin/env python3
# Outpost — bench/fairness (issue 25): one `outpost serve` (fresh database, free port),
# one "victim" game moving five times a second whose move round trips are measured,
# and one attack at a time from other loopback addresses (127.0.0.x: the server
# counts clients per address). Prints the victim's p50/p99 during each attack and
# whether the attackers' own requests were answered. See README.md here.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse, base64, http.client, json, multiprocessing as mp, os, random, re, shutil, socket, sqlite3
import struct, subprocess, sys, tempfile, threading, time

PASSWORD = "Fair-shares-25-bench"


# --- a minimal HTTP and WebSocket client, bound to a chosen source address -------------

def request(port, method, path, body=None, cookie=None, src="127.0.0.1", timeout=30):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(src, 0))
    headers = {"Host": "127.0.0.1"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if cookie:
        headers["Cookie"] = "outpost_session=" + cookie
    try:
        c.request(method, path, body=data, headers=headers)
        r = c.getresponse()
        text = r.read().decode("utf-8", "replace")
        m = re.search(r"outpost_session=([^;]+)", r.getheader("Set-Cookie") or "")
        return r.status, text, (m.group(1) if m else None)
    finally:
        c.close()


class WebSocket:
    def __init__(self, port, path, src="127.0.0.1", timeout=30):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(src, 0))
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            more = self.s.recv(1)
            if not more:
                raise ConnectionError("closed during the handshake")
            head += more
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.split(b"\r\n")[0].decode())
        self.buf = b""

    def send(self, obj, opcode=1):
        data = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buf) < n:
            more = self.s.recv(65536)
            if not more:
                raise ConnectionError("closed")
            self.buf += more
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        """The next text message as JSON (pings answered on the way)."""
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            op = b0 & 0x0F
            if op == 9:
                self.send(payload, 10)
                continue
            if op == 8:
                raise ConnectionError("closed by the server")
            if op == 10:
                continue
            message += payload
            if b0 & 0x80:
                return json.loads(message)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


# --- the server --------------------------------------------------------------------

class Server:
    def __init__(self, binary, db, extra):
        self.log = db + ".log"
        self.proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--db", db,
                                      "--web", "/nonexistent", "--password-cost", "cheapest"] + extra,
                                     stdout=open(self.log, "w"), stderr=subprocess.DEVNULL)
        self.port = 0
        for _ in range(600):
            m = re.search(r"http://[^:]+:(\d+)/", open(self.log).read())
            if m:
                self.port = int(m.group(1))
                break
            time.sleep(0.05)
        if not self.port:
            raise RuntimeError("outpost serve did not start: " + open(self.log).read())

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)


def sign_up(port, name):
    status, text, cookie = request(port, "POST", "/api/v1/account/signup", {"name": name, "password": PASSWORD})
    if status != 201:
        raise RuntimeError(f"sign-up {name}: {status} {text[:200]}")
    return cookie


def hotseat(port, src="127.0.0.1", pgn=None):
    body = {"v": 1, "opponent": "hotseat", "color": "white", "time_control": "-"}
    if pgn:
        body["pgn"] = pgn
    status, text, _ = request(port, "POST", "/api/v1/games", body, src=src)
    if status != 201:
        return None, None, status
    j = json.loads(text)
    return j["game"], j["seats"]["white"], status


def piece_at(fen, square):
    row = fen.split()[0].split("/")[8 - int(square[1])]
    return "".join("." * int(ch) if ch.isdigit() else ch for ch in row)[ord(square[0]) - ord("a")]


def promotion(fen, frm, to):
    return "q" if piece_at(fen, frm) in "Pp" and to[1] in "18" else ""


def long_pgn(port, plies=598):
    """A legal game of `plies` plies (or as long as random play got), not over: random moves
    played in a hotseat game, quiet moves preferred so that it lasts."""
    best = []
    for attempt in range(8):
        game, token, _ = hotseat(port)
        ws = WebSocket(port, f"/api/v1/ws?game={game}&seat={token}")
        state = ws.recv()["game"]
        sans, rng = [], random.Random(attempt)
        while len(sans) < plies and state.get("status") == "ongoing" and state.get("legal"):
            moves = [(f, t) for f, ts in state["legal"].items() for t in ts]
            rng.shuffle(moves)
            # Quiet moves first (captures end games early), a pawn move now and then
            # (the 75-move rule).
            pawn_turn = rng.random() < 0.04
            moves.sort(key=lambda m: (piece_at(state["fen"], m[1]) != ".",
                                      (piece_at(state["fen"], m[0]) in "Pp") != pawn_turn))
            f, t = moves[0]
            ws.send({"v": 1, "t": "move", "uci": f + t + promotion(state["fen"], f, t)})
            while True:
                msg = ws.recv()
                if msg.get("t") == "move":
                    state.update(msg["game"])
                    sans.append(msg["game"]["san"])
                    break
                if msg.get("t") == "error":
                    raise RuntimeError(msg)
        if state.get("status") != "ongoing":
            sans = sans[:-1]
        ws.send({"v": 1, "t": "resign"})
        ws.close()
        if len(sans) > len(best):
            best = sans
        if len(best) >= plies:
            break
    text = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + san for i, san in enumerate(best))
    return text + " *", len(best)


# --- the setup: accounts, a 500-player Swiss, simuls, 10,000 games of one account ----

def setup(binary, db, say, extra):
    s = Server(binary, db, ["--no-client-limits"] + extra)
    p = s.port
    try:
        heavy = sign_up(p, "heavy25")
        organiser = sign_up(p, "organiser25")
        status, text, _ = request(p, "POST", "/api/v1/events", {"name": "Big Swiss", "system": "swiss", "rounds": 5,
                                                                 "time_control": "15+10", "mode": "otb"}, organiser)
        event = json.loads(text)["id"]
        say("  500 players join a Swiss")
        for i in range(500):
            cookie = sign_up(p, f"swiss25p{i}")
            st, text, _ = request(p, "POST", f"/api/v1/events/{event}/join", {}, cookie)
            assert st == 200, text[:200]
        st, text, _ = request(p, "POST", f"/api/v1/events/{event}/rounds", {}, organiser)
        assert st == 201, text[:200]
        for board in range(1, 251):
            result = "1/2-1/2" if board % 7 == 0 else "0-1" if board % 3 == 0 else "1-0"
            st, text, _ = request(p, "POST", f"/api/v1/events/{event}/results",
                                  {"round": 1, "board": board, "result": result}, organiser)
            assert st == 200, text[:200]
        simuls = []
        for i in range(10):
            host = sign_up(p, f"simulhost25n{i}")
            st, text, _ = request(p, "POST", "/api/v1/simuls", {"name": f"Simul {i}", "time_control": "-",
                                                                "max_boards": 50, "join_directly": False}, host)
            assert st == 201, text[:200]
            simuls.append(json.loads(text)["simul"]["id"])
        say("  a 600-ply game for the PGN attack")
        pgn, plies = long_pgn(p)
        # The games the account will have (and the analysis flood's games): one
        # finished game, copied below with 40 of its moves.
        template, token, _ = hotseat(p, pgn=" ".join(pgn.split()[:60]) + " *")
        ws = WebSocket(p, f"/api/v1/ws?game={template}&seat={token}")
        ws.recv()
        ws.send({"v": 1, "t": "resign"})
        ws.recv()
        ws.close()
    finally:
        s.stop()
    say("  10,000 games of heavy25, written into the database")
    con = sqlite3.connect(db)
    account = con.execute("SELECT id FROM accounts WHERE name='heavy25'").fetchone()[0]
    cols = [r[1] for r in con.execute("PRAGMA table_info(games)")]
    pick = ", ".join("?" if c in ("id", "white_account") else c for c in cols)
    mcols = [r[1] for r in con.execute("PRAGMA table_info(moves)")]
    mpick = ", ".join("?" if c == "game_id" else c for c in mcols)
    ids = [f"heavy{i:05d}" for i in range(10000)]
    with con:
        for gid in ids:
            con.execute(f"INSERT INTO games ({', '.join(cols)}) SELECT {pick} FROM games WHERE id=?",
                        [gid if c == "id" else account for c in cols if c in ("id", "white_account")] + [template])
            con.execute(f"INSERT INTO moves ({', '.join(mcols)}) SELECT {mpick} FROM moves WHERE game_id=?",
                        [gid, template])
    con.close()
    return {"event": event, "organiser": organiser, "heavy": heavy, "simuls": simuls, "pgn": pgn,
            "pgn_plies": plies, "games": ids}


# --- the attacks: each a function of (port, source address, index, deadline, setup) ---
# Each returns (answered, refused, hung): an answer of any status counts as answered;
# a 4xx/5xx answer is also counted as refused; no answer within 30 s: hung.

def profile_reads(p, src, i, until, s):
    out = [0, 0, 0]
    while time.time() < until:
        try:
            st, _, _ = request(p, "GET", "/api/v1/players/heavy25", src=src)
            out[0] += 1
            out[1] += st >= 400
        except (OSError, http.client.HTTPException):
            out[2] += 1
    return out


def swiss_round(p, src, i, until, s):
    try:
        t = time.time()
        st, text, _ = request(p, "POST", f"/api/v1/events/{s['event']}/rounds", {}, s["organiser"], src=src, timeout=120)
        print(f"    round 2 of 500 players: HTTP {st} in {time.time() - t:.2f} s", flush=True)
        return [1, int(st >= 400), 0]
    except (OSError, http.client.HTTPException):
        return [0, 0, 1]


def pgn_creations(p, src, i, until, s):
    out = [0, 0, 0]
    while time.time() < until:
        try:
            _, _, st = hotseat(p, src=src, pgn=s["pgn"])
            out[0] += 1
            out[1] += st >= 400
        except (OSError, http.client.HTTPException):
            out[2] += 1
    return out


def simul_joins(p, src, i, until, s):
    out, n = [0, 0, 0], 0
    while time.time() < until:
        n += 1
        try:
            st, _, _ = request(p, "POST", f"/api/v1/simuls/{s['simuls'][n % len(s['simuls'])]}/join",
                               {"name": f"Guest {i} {n}"}, src=src)
            out[0] += 1
            out[1] += st >= 400
        except (OSError, http.client.HTTPException):
            out[2] += 1
    return out


def lobby_seeks(p, src, i, until, s):
    out = [0, 0, 0]
    try:
        ws = WebSocket(p, "/api/v1/lobby", src=src)
        ws.recv()
        while time.time() < until:
            ws.send({"v": 1, "t": "seek", "time_control": "5+3", "name": f"Seeker {i}"})
            ws.send({"v": 1, "t": "cancel"})
            msg = ws.recv()
            out[0] += 1
            out[1] += msg.get("t") == "error"
            time.sleep(0.02)
        ws.close()
    except (OSError, ConnectionError, ValueError):
        out[2] += 1
    return out


def analysis_requests(p, src, i, until, s):
    out, n = [0, 0, 0], 0
    while time.time() < until:
        gid = s["games"][(i * 997 + n) % len(s["games"])]
        n += 1
        try:
            st, _, _ = request(p, "POST", f"/api/v1/games/{gid}/analysis", {"v": 1}, src=src)
            out[0] += 1
            out[1] += st >= 400
        except (OSError, http.client.HTTPException):
            out[2] += 1
        time.sleep(0.05)
    return out


def robot_games(p, src, i, until, s):
    """20 level-10 robot games from one address, a random legal reply to every robot move."""
    out = [0, 0, 0]
    def one(k):
        try:
            st, text, _ = request(p, "POST", "/api/v1/games", {"v": 1, "opponent": "robot", "level": 10, "color": "black",
                                                               "time_control": "-"}, src=src)
            if st != 201:
                out[0] += 1
                out[1] += 1
                return
            j = json.loads(text)
            ws = WebSocket(p, f"/api/v1/ws?game={j['game']}&seat={j['seats']['black']}", src=src)
            rng = random.Random(k)
            state = ws.recv()["game"]
            ws.s.settimeout(60)
            while time.time() < until and state.get("status") == "ongoing":
                if state.get("legal") and state.get("turn") == "black":
                    moves = [(f, t) for f, ts in state["legal"].items() for t in ts]
                    f, t = rng.choice(moves)
                    ws.send({"v": 1, "t": "move", "uci": f + t + promotion(state["fen"], f, t)})
                msg = ws.recv()
                if msg.get("t") in ("move", "state"):
                    state.update(msg["game"])
                    if msg.get("t") == "move" and state.get("turn") == "black":
                        out[0] += 1  # the robot answered
            ws.close()
        except (OSError, ConnectionError, ValueError, KeyError):
            out[2] += 1
    threads = [threading.Thread(target=one, args=(k,)) for k in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


ATTACKS = [  # name, function, number of addresses
    ("profile reads of a 10,000-game account, 20 addresses", profile_reads, 20),
    ("500-player Swiss: round 2 starts", swiss_round, 1),
    ("600-ply PGN creations, 10 addresses", pgn_creations, 10),
    ("simul joins, 20 addresses", simul_joins, 20),
    ("lobby seek flood, 20 addresses", lobby_seeks, 20),
    ("analysis flood, 9 addresses", analysis_requests, 9),
    ("robot flood: 20 level-10 games, 1 address", robot_games, 1),
]


def attacker(fn, port, src, i, until, s, results):
    results.put(fn(port, src, i, until, s))


# --- the victim ----------------------------------------------------------------------

# 32 plies of pawn moves that neither repeat a position nor capture: a2a3 a7a6 a3a4 a6a5 b2b3 …
PLIES = [m for f in "abcdefgh" for m in (f + "2" + f + "3", f + "7" + f + "6", f + "3" + f + "4", f + "6" + f + "5")]


def victim_games(port, n):
    """`n` hotseat games from 127.0.0.1, their WebSockets open: made before an attack starts."""
    games = []
    for _ in range(n):
        game, token, _ = hotseat(port)
        ws = WebSocket(port, f"/api/v1/ws?game={game}&seat={token}", timeout=60)
        ws.recv()
        games.append(ws)
    return games


def victim(port, games, until, busy, times):
    """Moves five times a second (32 plies a game) until `until` and while `busy()`;
    `times` gets each move's round trip in ms (an answer that never came: 60,000)."""
    while time.time() < until or busy():
        ws = games.pop(0) if games else victim_games(port, 1)[0]  # more: the attack outlasts the window
        for uci in PLIES:
            if time.time() >= until and not busy():
                break
            t0 = time.perf_counter()
            try:
                ws.send({"v": 1, "t": "move", "uci": uci})
                while ws.recv().get("t") not in ("move", "error"):
                    pass
                times.append((time.perf_counter() - t0) * 1000)
            except (OSError, ConnectionError, ValueError):
                times.append(60000.0)
                break
            time.sleep(max(0.0, 0.2 - (time.perf_counter() - t0)))
        ws.close()


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--only", default="", help="run only the attacks whose name contains this")
    ap.add_argument("--serve-args", default="")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (the database, the server's log)")
    a = ap.parse_args()
    say = lambda m: print(m, flush=True)
    tmp = tempfile.mkdtemp(prefix="outpost-fairness-")
    db = os.path.join(tmp, "fair.db")
    say(f"setting up in {tmp}")
    s = setup(a.binary, db, say, a.serve_args.split())
    say(f"  PGN of {s['pgn_plies']} plies")
    extra = ["--max-open-games", "1000"] + a.serve_args.split()
    server = Server(a.binary, db, extra)
    rows = []
    try:
        for name, fn, n in [("no attack (baseline)", None, 0)] + ATTACKS:
            if a.only and fn and a.only not in name:
                continue
            say(f"{name} ...")
            games = victim_games(server.port, int(a.seconds * 5 / 32) + 2)
            times, until = [], time.time() + a.seconds
            results = mp.Queue()
            procs = [mp.Process(target=attacker, args=(fn, server.port, f"127.0.0.{10 + i}", i, until, s, results))
                     for i in range(n)]
            for proc in procs:
                proc.start()
            time.sleep(0.3)
            victim(server.port, games, until, lambda: any(p.is_alive() for p in procs) and time.time() < until + 120, times)
            answered = refused = hung = 0
            for _ in procs:
                r = results.get(timeout=180)
                answered, refused, hung = answered + r[0], refused + r[1], hung + r[2]
            for proc in procs:
                proc.join()
            rows.append((name, len(times), percentile(times, 0.5), percentile(times, 0.99), max(times or [0]),
                         answered, refused, hung, n))
            time.sleep(1)
    finally:
        server.stop()
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    say("")
    say("| attack | victim moves | p50 ms | p99 ms | max ms | attackers' requests answered (of them refused) | hung |")
    say("|---|---|---|---|---|---|---|")
    for name, moves, p50, p99, mx, ans, ref, hung, n in rows:
        att = "—" if not n else f"{ans} ({ref})"
        say(f"| {name} | {moves} | {p50:.1f} | {p99:.1f} | {mx:.0f} | {att} | {hung if n else '—'} |")


if __name__ == "__main__":
    main()
