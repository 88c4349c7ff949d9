@testable import PongWire
import Testing
@testable import SessionHub

@Suite("HTTP router")
struct HTTPRouterTests {
    private let router = HTTPRouter()

    @Test("GET /healthz answers 200 with a JSON status")
    func health() {
        let response = router.respond(method: "GET", path: "/healthz", body: [])
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"status":"ok"}"#)
    }

    @Test("an unknown path is a 404 in the error envelope")
    func unknown() {
        let response = router.respond(method: "GET", path: "/nope?x=1", body: [])
        #expect(response.status == 404)
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"error":{"code":"not_found","message":"No such endpoint: /nope"}}"#)
    }

    @Test("a wrong method on a known path is a 405")
    func wrongMethod() {
        #expect(router.respond(method: "POST", path: "/healthz", body: []).status == 405)
    }

    @Test("error messages are JSON-escaped")
    func escaping() {
        let error = APIError(status: 400, code: "bad", message: "quote \" backslash \\ newline \n bell \u{7}")
        #expect(error.jsonBody == #"{"error":{"code":"bad","message":"quote \" backslash \\ newline \n bell \u0007"}}"#)
    }
}
