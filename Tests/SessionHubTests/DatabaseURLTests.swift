import Testing
@testable import SessionHub

@Suite("pongd serve --database URLs")
struct DatabaseURLTests {
    @Test("a TCP URL gives host, port, user, password, database and sslmode (libpq's defaults)")
    func tcp() throws {
        let url = try DatabaseURL("postgres://pong:s%40cret@db.example:6432/league?sslmode=verify-full")
        #expect(url.endpoint == .tcp(host: "db.example", port: 6432))
        #expect(url.user == "pong" && url.password == "s@cret" && url.database == "league")
        #expect(url.tls == .verifyFull)
        let plain = try DatabaseURL("postgresql://pong@127.0.0.1/league")
        #expect(plain.endpoint == .tcp(host: "127.0.0.1", port: 5432))
        #expect(plain.tls == .prefer && plain.password == nil)
        #expect(try DatabaseURL("postgres://pong@[::1]:5433").endpoint == .tcp(host: "::1", port: 5433))
        #expect(try DatabaseURL("postgres://pong@h").database == "pong")
    }

    @Test("?host=/folder is the Unix socket in that folder; the password may come from PGPASSWORD")
    func socket() throws {
        let url = try DatabaseURL("postgres://pong@/league?host=/run/postgresql&port=5433",
                                  environment: ["PGPASSWORD": "pw"])
        #expect(url.endpoint == .socket(path: "/run/postgresql/.s.PGSQL.5433"))
        #expect(url.password == "pw")
        #expect(try DatabaseURL("postgres://pong@/league?host=/tmp/").endpoint == .socket(path: "/tmp/.s.PGSQL.5432"))
    }

    @Test("options (libpq's) are kept for the server, e.g. a schema of pongd's own")
    func options() throws {
        let url = try DatabaseURL("postgres://pong@db/league?options=-c%20search_path%3Dpongd")
        #expect(url.options == "-c search_path=pongd")
        #expect(try DatabaseURL("postgres://pong@db/league").options == nil)
    }

    @Test("the description never shows the password")
    func redacted() throws {
        let url = try DatabaseURL("postgres://pong:secret@db:5432/league?sslmode=disable")
        #expect(!"\(url)".contains("secret"))
        #expect("\(url)" == "postgres://pong@db:5432/league?sslmode=disable")
        do {
            _ = try DatabaseURL("mysql://pong:secret@db/league")
            Issue.record("expected a refusal")
        } catch {
            #expect(!error.description.contains("secret"))
        }
    }

    @Test("other schemes, no host, unknown options, bad ports and sslmodes are refused with a reason",
          arguments: ["mysql://pong@db/league", "postgres:///league", "postgres://pong@db/league?sslmode=maybe",
                      "postgres://pong@db/league?timeout=5", "postgres://pong@/league?host=relative",
                      "postgres://pong@/league?host=/run&port=99999", "not a url"])
    func refused(text: String) {
        #expect(throws: DatabaseURL.ParseError.self) { try DatabaseURL(text) }
    }
}
