import Foundation
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import SessionHub

/// A PostgreSQL server of the tests' own, in a temporary folder, started once per test process on first use and
/// stopped when the process exits: Debian's `postgresql` binaries (`/usr/lib/postgresql/<version>/bin`), `initdb`
/// into the folder, `pg_ctl start` listening on a Unix socket in the folder and on a free loopback port. initdb
/// refuses to run as root, so as root the folder is handed to `nobody` and the binaries run through `runuser`.
/// Durability settings are off (fsync): the tests kill pongd, never this server.
final class PostgresTestServer: Sendable {
    /// The newest `/usr/lib/postgresql/*/bin` holding initdb, pg_ctl and createdb; nil when none does.
    static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }.first { bin in
            ["initdb", "pg_ctl", "createdb"].allSatisfy { FileManager.default.isExecutableFile(atPath: "\(bin)/\($0)") }
        }
    }()

    /// Why the PostgreSQL tests are skipped here; nil when they run.
    static let unavailable: String? = binaries == nil
        ? "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (Debian's postgresql package)" : nil

    /// The process's server, started on first use (a few seconds).
    static let shared: Result<PostgresTestServer, TestServerError> = Result { () throws(TestServerError) in
        try PostgresTestServer()
    }

    /// Why the server could not be started.
    struct TestServerError: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder holding the cluster (`data`), its socket and its log.
    let folder: String
    /// The folder of the Unix socket.
    let socketFolder: String
    /// The loopback TCP port.
    let port: Int
    /// The superuser the tests connect as (trust authentication).
    let user = "pongd"
    private let bin: String
    private let runAs: [String]
    private let databases = Counter()

    private init() throws(TestServerError) {
        guard let bin = Self.binaries else { throw TestServerError(description: Self.unavailable ?? "") }
        self.bin = bin
        let base = FileManager.default.temporaryDirectory.path + "/pongd-pg-"
            + UUID().uuidString.prefix(8).lowercased()
        folder = base
        socketFolder = base
        port = freeLoopbackPort()
        runAs = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "nobody", "--"] : []
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            if getuid() == 0, let nobody = getpwnam("nobody") {
                guard chown(folder, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0 else {
                    throw TestServerError(description: "chown \(folder) to nobody: errno \(errno)")
                }
            }
        } catch let error as TestServerError {
            throw error
        } catch {
            throw TestServerError(description: "cannot create \(folder): \(error)")
        }
        try run("initdb", ["-D", folder + "/data", "-U", user, "--auth=trust", "-E", "UTF8", "--no-locale",
                           "--no-sync"])
        let options = "-p \(port) -k \(socketFolder) -c listen_addresses=127.0.0.1 -c fsync=off "
            + "-c full_page_writes=off -c max_connections=200"
        try run("pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "30", "-o", options,
                           "start"])
        PostgresTestServer.stopAtExit(folder: folder)
    }

    /// A new, empty schema in the database `stores` (a schema costs a millisecond, a database 0.2 s); the URL of a
    /// connection that keeps its tables there (`options=-c search_path=…`), over the Unix socket.
    func makeSchema() throws -> DatabaseURL {
        let schema = "store\(databases.next())"
        try schemaHost().execute(rawSQL: "CREATE SCHEMA \(schema)")
        return try DatabaseURL("postgres://\(user)@/stores?host=\(socketFolder)&port=\(port)"
                               + "&options=-c%20search_path%3D\(schema)")
    }

    /// A store on `stores`, made once, through which the schemas are created.
    private func schemaHost() throws -> PostgresStore {
        try hostStore.withLock { host in
            if let host { return host }
            try run("createdb", ["-h", socketFolder, "-p", "\(port)", "-U", user, "stores"])
            let url = try DatabaseURL("postgres://\(user)@/stores?host=\(socketFolder)&port=\(port)")
            let store = try PostgresStore(url: url, logger: StoreBackend.quiet)
            host = store
            return store
        }
    }

    private let hostStore = Mutex<PostgresStore?>(nil)

    /// A new, empty database on the server; its connection URL over the Unix socket.
    func makeDatabase() throws -> DatabaseURL {
        let name = "store\(databases.next())"
        try run("createdb", ["-h", socketFolder, "-p", "\(port)", "-U", user, name])
        return try DatabaseURL("postgres://\(user)@/\(name)?host=\(socketFolder)&port=\(port)")
    }

    /// The URL of `database` over TCP on loopback (as an operator would write it).
    func tcpURL(database: String) -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// A new, empty database; its name.
    func makeDatabaseName() throws -> String {
        let name = "db\(databases.next())"
        try run("createdb", ["-h", socketFolder, "-p", "\(port)", "-U", user, name])
        return name
    }

    /// Runs one of the server's programs (as `nobody` when root) and waits for it; its output in the error.
    private func run(_ program: String, _ arguments: [String]) throws(TestServerError) {
        let command = runAs + ["\(bin)/\(program)"] + arguments
        let log = FileManager.default.temporaryDirectory.path + "/pongd-pg-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        // posix_spawn and waitpid, not Foundation's Process: its waitUntilExit also waits for the server pg_ctl
        // leaves running. Output goes to a file the server does not keep (pg_ctl -l gives it its own).
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid = pid_t()
        let argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw TestServerError(description: "\(program): posix_spawn error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let result = (status: exited, stdout: "", stderr: output)
        guard result.status == 0 else {
            throw TestServerError(description: "\(program) exited with \(result.status): \(result.stderr)"
                                  + result.stdout)
        }
    }

    /// At process exit: the server stops at once (SIGQUIT, immediate shutdown) and the folder goes.
    private static func stopAtExit(folder: String) {
        atExitFolder.withLock { $0 = folder }
        atexit {
            guard let folder = PostgresTestServer.atExitFolder.withLock({ $0 }) else { return }
            let pidFile = folder + "/data/postmaster.pid"
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
               let line = text.split(separator: "\n").first, let pid = pid_t(line) {
                kill(pid, SIGQUIT)
                for _ in 0..<100 where kill(pid, 0) == 0 { usleep(20_000) }
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    private static let atExitFolder = Mutex<String?>(nil)
}

/// Numbers 1, 2, 3… across threads.
private final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
