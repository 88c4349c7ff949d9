import Testing

@Suite("NetworkLab: reading ss")
struct NetworkLabTests {
    @Test("the listening port of one process is read from ss -ltnpH, whatever else listens")
    func listeningPort() {
        let listing = """
            LISTEN 0      128        127.0.0.1:44919      0.0.0.0:* users:(("python3",pid=14465,fd=3))
            LISTEN 0      256       10.231.0.1:41235      0.0.0.0:* users:(("pongd",pid=1234,fd=7))
            LISTEN 0      256            [::1]:8081          [::]:* users:(("pongd",pid=777,fd=9))

            """
        #expect(NetworkLab.port(of: 1234, inListing: listing) == 41235)
        #expect(NetworkLab.port(of: 777, inListing: listing) == 8081)
        #expect(NetworkLab.port(of: 123, inListing: listing) == nil)  // not pid 1234's prefix
        #expect(NetworkLab.port(of: 99, inListing: listing) == nil)
    }
}
