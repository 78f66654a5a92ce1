// Outpost — backups of the SQLite database (stores/backup.h): `outpost backup`, `outpost
// restore` and `outpost db check`.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The copy uses SQLite's online backup API (sqlite3_backup_*), not VACUUM INTO. Both
// read one snapshot, and in WAL mode a reader never blocks the writer, so either copies
// while `outpost serve` plays on. But VACUUM INTO is one statement: it cannot be paced,
// and it rebuilds every table and index (CPU the server's threads would miss). The
// backup API copies pages as they are, in chunks (pages_per_step) with a pause between
// them, so the copy leaves the disk to the server's commits between chunks. One
// catch: the backup API starts over when another process writes between two steps,
// which under 100 live games would be always. So the source connection opens a read
// transaction before the first step and holds it to the last: every chunk reads the
// same snapshot, and nothing starts over. The price, while the copy runs: the server's
// checkpoints cannot start the WAL over past that snapshot, so the WAL grows by what
// the games write meanwhile (copied back once the copy is done; a copy long enough for
// it to reach the store's emergency size, 128 MB, would make the writer wait). A
// database in rollback-journal mode, which the server never leaves, would make its
// writer wait for the whole copy.
//
// A backup is one self-contained file: journal_mode=DELETE (no -wal beside it), mode
// 0600 (it holds password hashes), checked with PRAGMA integrity_check and the schema
// check below before it is renamed into place. Foreign keys are declared by the schema
// but not enforced (no store turns PRAGMA foreign_keys on), so foreign_key_check is not
// part of the check: a violation there is not damage.
#include "server/stores/backup.h"
#include "server/stores/sqlite/sqlite_db.h"
#include "server/stores/sqlite/sqlite_schema.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

namespace outpost::server {
namespace {

namespace fs = std::filesystem;

std::string folder_of(const fs::path& p) { return p.parent_path().empty() ? std::string(".") : p.parent_path().string(); }

void remove_side_files(const std::string& path) {
    std::error_code ec;
    for (const char* suffix : {"-wal", "-shm", "-journal"}) fs::remove(path + suffix, ec);
}

// A temporary file beside the final one (same folder: the rename is atomic), removed
// with its side files unless kept.
class TempFile {
public:
    explicit TempFile(const fs::path& final)
        : path_((fs::path(folder_of(final)) / ("." + final.filename().string() + ".partial-" + std::to_string(::getpid())))
                    .string()) {}
    ~TempFile() {
        if (kept_) return;
        std::error_code ec;
        if (created_) fs::remove(path_, ec);
        remove_side_files(path_);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    // Creates it, empty and only for its owner: also the check that the folder can be
    // written in (a permission test would be wrong for root and for read-only mounts).
    Result<bool> create(const std::string& folder) {
        const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) return make_error("cannot write in the folder " + folder + ": " + std::strerror(errno));
        ::close(fd);
        created_ = true;
        return true;
    }
    const std::string& path() const { return path_; }
    void keep() { kept_ = true; }

private:
    std::string path_;
    bool created_ = false, kept_ = false;
};

// Flushes a file (or a folder: the rename in it) to the disk.
Result<bool> sync_path(const std::string& path, bool folder) {
    const int fd = ::open(path.c_str(), (folder ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
    if (fd < 0) return make_error("cannot open " + path + ": " + std::strerror(errno));
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0) return make_error("cannot flush " + path + " to the disk: " + std::strerror(err));
    return true;
}

// Why the database `name` could not be read, in words.
std::string unreadable(sqlite3* db, const std::string& name) {
    const int code = sqlite3_errcode(db) & 0xff;
    if (code == SQLITE_NOTADB) return name + " is not a SQLite database";
    if (code == SQLITE_CORRUPT) return name + " is damaged: " + sqlite3_errmsg(db);
    return "cannot read " + name + ": " + sqlite3_errmsg(db);
}

// What is wrong with the database open on c (called `name` in the words): its
// integrity, then whether it is an Outpost database this program can run.
std::vector<std::string> problems_of(Connection& c, const std::string& name, int& version) {
    std::vector<std::string> problems;
    {
        Statement s(c.db, "PRAGMA integrity_check(20);");
        if (!s.ok()) return {unreadable(c.db, name)};
        int rc;
        while ((rc = s.step()) == SQLITE_ROW)
            if (s.text(0) != "ok") problems.push_back(name + " is damaged: " + s.text(0));
        if (rc != SQLITE_DONE) problems.push_back(unreadable(c.db, name));
    }
    if (!problems.empty()) return problems;
    auto v = sqlite_schema::database_version(c);
    if (!v) return {unreadable(c.db, name)};
    version = *v;
    Statement t(c.db, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN ('games','moves');");
    if (!t.ok() || t.step() != SQLITE_ROW) return {unreadable(c.db, name)};
    if (t.integer(0) < 2) problems.push_back(name + " has no Outpost tables (games, moves): not an Outpost database");
    else if (version > sqlite_schema::program_version())
        problems.push_back(name + " has schema version " + std::to_string(version) + ", newer than this program's " +
                           std::to_string(sqlite_schema::program_version()) + ": run a newer outpost with it");
    return problems;
}

// Whether another process has the database file open in WAL mode (a running `outpost
// serve`): SQLite keeps a shared lock on the file's lock bytes for as long as a WAL
// connection is open. Asked with F_GETLK, which takes no lock itself.
bool in_use(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = 0x40000000;  // SQLite's PENDING_BYTE; the RESERVED byte and the SHARED range follow
    lock.l_len = 2 + 510;
    const bool busy = ::fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
    ::close(fd);
    return busy;
}

Result<sqlite3*> open_existing(const std::string& path, int flags) {
    auto opened = open_connection(path, flags);
    if (!opened) return opened.error();
    return *opened;
}

// Makes the copy on c one self-contained file, checks it, and answers its version.
Result<int> finish_copy(Connection& c, const std::string& name) {
    if (auto r = c.exec("PRAGMA journal_mode=DELETE;"); !r) return make_error(unreadable(c.db, name));
    int version = 0;
    const std::vector<std::string> problems = problems_of(c, name, version);
    if (!problems.empty()) return make_error(problems.front());
    return version;
}

// Puts the checked temporary file in place of `target`.
Result<bool> put_in_place(TempFile& tmp, const std::string& target) {
    if (auto r = sync_path(tmp.path(), false); !r) return r;
    // A -wal or -journal of what was there before would be applied to the new file at
    // its first open: they go first.
    remove_side_files(target);
    std::error_code ec;
    fs::rename(tmp.path(), target, ec);
    if (ec) return make_error("cannot rename " + tmp.path() + " to " + target + ": " + ec.message());
    tmp.keep();
    (void)sync_path(folder_of(target), true);
    return true;
}

// The checks of a target that both commands share.
Result<bool> check_target(const std::string& target, bool force, const char* what) {
    std::error_code ec;
    if (fs::is_directory(target, ec)) return make_error(target + " is a folder, not a file");
    if (fs::exists(target, ec) && !force) return make_error(target + " exists: " + what + " (--force replaces it)");
    const std::string folder = folder_of(target);
    if (!fs::is_directory(folder, ec))
        return make_error("cannot write in the folder " + folder + (fs::exists(folder, ec) ? ": not a folder" : ": no such folder"));
    return true;
}

}  // namespace

Result<BackupReport> backup_database(const std::string& db, const std::string& out, const BackupOptions& options) {
    std::error_code ec;
    if (!fs::is_regular_file(db, ec)) return make_error("no database at " + db);
    if (auto r = check_target(out, options.force, "choose another name"); !r) return r.error();
    if (fs::equivalent(db, out, ec)) return make_error(out + " is the database itself");
    TempFile tmp{fs::path(out)};
    if (auto r = tmp.create(folder_of(out)); !r) return r.error();

    BackupReport report;
    const auto t0 = std::chrono::steady_clock::now();
    Connection dst;
    {
        auto d = open_existing(tmp.path(), SQLITE_OPEN_READWRITE);
        if (!d) return d.error();
        dst.db = *d;
        Connection src;
        auto s = open_existing(db, SQLITE_OPEN_READONLY);
        if (!s) return s.error();
        src.db = *s;
        // The snapshot: one read transaction from the first chunk to the last.
        if (!src.exec("BEGIN; SELECT count(*) FROM sqlite_master;")) return make_error(unreadable(src.db, db));
        sqlite3_backup* b = sqlite3_backup_init(dst.db, "main", src.db, "main");
        if (!b) return db_error(dst.db, "cannot start the backup");
        int rc = SQLITE_OK, busy = 0;
        for (;;) {
            rc = sqlite3_backup_step(b, options.pages_per_step);
            ++report.steps;
            if (rc == SQLITE_DONE) break;
            if ((rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && ++busy < 500) {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
                continue;
            }
            if (rc != SQLITE_OK) break;
            if (options.cancelled && options.cancelled()) break;
            if (options.pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(options.pause_ms));
        }
        sqlite3_backup_finish(b);
        if (rc == SQLITE_OK) return make_error("interrupted: no backup written");
        if (rc != SQLITE_DONE) {
            if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT) return make_error(unreadable(src.db, db));
            return make_error("the copy of " + db + " into " + tmp.path() + " failed: " + sqlite3_errstr(rc));
        }
        (void)src.exec("COMMIT;");
    }  // the snapshot ends: the server's checkpoints may start the WAL over again
    auto version = finish_copy(dst, db);
    if (!version) return version.error();
    sqlite3_close(dst.db);
    dst.db = nullptr;
    if (auto r = put_in_place(tmp, out); !r) return r.error();
    report.path = out;
    report.schema_version = *version;
    report.bytes = fs::file_size(out, ec);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return report;
}

Result<RestoreReport> restore_database(const std::string& backup, const std::string& db, bool force) {
    std::error_code ec;
    if (!fs::is_regular_file(backup, ec)) return make_error("no backup at " + backup);
    if (auto r = check_target(db, force, "restoring would replace it"); !r) return r.error();
    if (fs::equivalent(backup, db, ec)) return make_error(backup + " is the database itself");
    if (in_use(db)) return make_error("the database " + db + " is open in another process (`outpost serve`?): stop it first");
    TempFile tmp{fs::path(db)};
    if (auto r = tmp.create(folder_of(db)); !r) return r.error();
    fs::copy_file(backup, tmp.path(), fs::copy_options::overwrite_existing, ec);
    if (ec) return make_error("cannot copy " + backup + " to " + tmp.path() + ": " + ec.message());
    fs::permissions(tmp.path(), fs::perms::owner_read | fs::perms::owner_write, ec);

    RestoreReport report;
    {
        Connection c;
        auto opened = open_existing(tmp.path(), SQLITE_OPEN_READWRITE);
        if (!opened) return opened.error();
        c.db = *opened;
        auto version = finish_copy(c, backup);
        if (!version) return version.error();
        report.schema_version = *version;
    }
    if (auto r = put_in_place(tmp, db); !r) return r.error();
    report.path = db;
    report.bytes = fs::file_size(db, ec);
    return report;
}

Result<CheckReport> check_database(const std::string& db) {
    std::error_code ec;
    if (!fs::is_regular_file(db, ec)) return make_error("no database at " + db);
    Connection c;
    auto opened = open_existing(db, SQLITE_OPEN_READONLY);
    if (!opened) return opened.error();
    c.db = *opened;
    CheckReport report;
    report.program_version = sqlite_schema::program_version();
    report.problems = problems_of(c, db, report.schema_version);
    return report;
}

}  // namespace outpost::server
