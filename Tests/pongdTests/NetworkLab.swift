import Foundation

/// Network namespaces for link tests: a "server" and a "phone" namespace joined by a veth pair (shaped with
/// `tc … tbf` on the phone's side) or by `../shared/tools/linkemu.py` (delay). Needs root and iproute2; `available`
/// says whether this machine can make them, and tests that need them are skipped (with that reason) when it cannot.
struct NetworkLab {
    /// The two namespaces' names and addresses.
    let serverNamespace: String
    let phoneNamespace: String
    let serverAddress: String
    let phoneAddress: String
    private var helpers: [Process] = []

    /// Whether namespaces can be made here (root, `ip`, `tc`): tried once with a throwaway namespace.
    static let available: Bool = {
        guard geteuid() == 0, let ip = tool("ip"), tool("tc") != nil else { return false }
        let probe = "pongd-probe-\(getpid())"
        guard (try? run(ip, ["netns", "add", probe]))?.status == 0 else { return false }
        _ = try? run(ip, ["netns", "del", probe])
        return true
    }()

    /// Why link tests are skipped where `available` is false.
    static let unavailableReason = "needs root, iproute2 (ip, tc) and network namespaces"

    /// How long the shaped uplink's queue is (tbf's `latency`).
    static let uplinkQueue = "1000ms"

    /// A fresh pair of namespaces joined by a veth pair; the phone's upload is limited to `mbit` Mbit/s by a token
    /// bucket filter (`tbf`) on its end.
    static func veth(shapingPhoneUploadTo mbit: Double, tag: String) throws -> NetworkLab {
        let lab = NetworkLab(tag: tag, subnet: 231)
        let ip = try requireTool("ip")
        try lab.makeNamespaces()
        let (server, phone) = ("ps\(tag)", "pp\(tag)")
        try check(ip, ["link", "add", server, "type", "veth", "peer", "name", phone])
        try check(ip, ["link", "set", server, "netns", lab.serverNamespace])
        try check(ip, ["link", "set", phone, "netns", lab.phoneNamespace])
        try check(ip, ["-n", lab.serverNamespace, "addr", "add", "\(lab.serverAddress)/24", "dev", server])
        try check(ip, ["-n", lab.phoneNamespace, "addr", "add", "\(lab.phoneAddress)/24", "dev", phone])
        try check(ip, ["-n", lab.serverNamespace, "link", "set", server, "up"])
        try check(ip, ["-n", lab.phoneNamespace, "link", "set", phone, "up"])
        // A bucket of 64 KB: large enough for the rate at any kernel HZ; the prober discards the first 0.4 s, which
        // covers the initial burst at the slowest rate tested. A queue of 1 s, like a phone's bloated uplink buffer:
        // with tbf's shallow 50 ms tail drop TCP lost up to half its packets, and one retransmission timeout in the
        // 2 s test cost up to 28 % of the measured rate (BENCHMARKS.md, "The prober on shaped links").
        try check(ip, ["netns", "exec", lab.phoneNamespace, try requireTool("tc"), "qdisc", "add", "dev", phone, "root",
                       "tbf", "rate", "\(Int(mbit * 1000))kbit", "burst", "64kb", "latency", Self.uplinkQueue])
        return lab
    }

    /// A fresh pair of namespaces joined by `linkemu.py` with `delayMs` of one-way delay each way at `rate`.
    static func emulated(delayMs: Double, rate: String, tag: String, script: URL) throws -> NetworkLab {
        var lab = NetworkLab(tag: tag, subnet: 232)
        try lab.makeNamespaces()
        let python = try requireTool("python3")
        let emulator = Process()
        emulator.executableURL = URL(fileURLWithPath: python)
        emulator.arguments = [script.path, "--ns-a", lab.serverNamespace, "--ns-b", lab.phoneNamespace,
                              "--ip-a", lab.serverAddress, "--ip-b", lab.phoneAddress, "--delay-ms", "\(delayMs)",
                              "--rate", rate, "--ctl", "/tmp/linkemu-\(tag).ctl"]
        emulator.standardOutput = FileHandle.nullDevice
        emulator.standardError = FileHandle.nullDevice
        try emulator.run()
        lab.helpers.append(emulator)
        // Wait for its TUN devices to be up in both namespaces.
        let ip = try requireTool("ip")
        for _ in 0..<50 {
            if let shown = try? run(ip, ["-n", lab.phoneNamespace, "addr", "show", "dev", "le_b"]),
               shown.status == 0, shown.output.contains(lab.phoneAddress)
            {
                return lab
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        lab.tearDown()
        throw LabError("linkemu.py did not bring its link up")
    }

    private init(tag: String, subnet: Int) {
        serverNamespace = "pongd-s\(tag)"
        phoneNamespace = "pongd-p\(tag)"
        serverAddress = "10.\(subnet).0.1"
        phoneAddress = "10.\(subnet).0.2"
    }

    private func makeNamespaces() throws {
        let ip = try Self.requireTool("ip")
        for namespace in [serverNamespace, phoneNamespace] {
            _ = try? Self.run(ip, ["netns", "del", namespace])  // left over from an interrupted run
            try Self.check(ip, ["netns", "add", namespace])
            try Self.check(ip, ["-n", namespace, "link", "set", "lo", "up"])
        }
    }

    /// Starts `executable` inside a namespace (it keeps running until stopped or its own end).
    func launch(in namespace: String, _ executable: URL, _ arguments: [String], output: Pipe? = nil,
                errors: FileHandle? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.requireTool("ip"))
        process.arguments = ["netns", "exec", namespace, executable.path] + arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until process `pid` (launched with `launch`, which execs it in place) listens on a TCP port in
    /// `namespace` (`ss` from iproute2), up to `seconds`, and returns that port: a server started with `--port 0`
    /// takes a free one.
    func listeningPort(of pid: Int32, in namespace: String, on address: String? = nil, seconds: Double) throws -> Int {
        let ip = try Self.requireTool("ip")
        let ss = try Self.requireTool("ss")
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let listening = try Self.run(ip, ["netns", "exec", namespace, ss, "-ltnpH"])
            if listening.status == 0, let port = Self.port(of: pid, inListing: listening.output, address: address) {
                return port
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw LabError("process \(pid) listens on no TCP port in \(namespace) after \(seconds) s")
    }

    /// The local port of `pid`'s first listening socket (on `address`, if given) in `ss -ltnpH` output
    /// (`LISTEN 0 256 10.231.0.1:41235 0.0.0.0:* users:(("pongd",pid=1234,fd=7))`), or nil.
    static func port(of pid: Int32, inListing listing: String, address: String? = nil) -> Int? {
        for line in listing.split(separator: "\n") where line.contains("pid=\(pid),") {
            let columns = line.split(separator: " ")
            guard columns.count > 3, let colon = columns[3].lastIndex(of: ":") else { continue }
            if let address, columns[3][..<colon] != address { continue }
            if let port = Int(columns[3][columns[3].index(after: colon)...]) { return port }
        }
        return nil
    }

    /// Stops the helpers and deletes both namespaces (their veth or TUN devices go with them).
    func tearDown() {
        // SIGKILL: a child of Foundation's Process may not see SIGTERM, and linkemu.py needs no cleanup here (its
        // TUN devices go when its descriptors close; the namespaces are deleted below).
        for helper in helpers where helper.isRunning {
            kill(helper.processIdentifier, SIGKILL)
            helper.waitUntilExit()
        }
        guard let ip = Self.tool("ip") else { return }
        for namespace in [serverNamespace, phoneNamespace] { _ = try? Self.run(ip, ["netns", "del", namespace]) }
    }

    // MARK: Commands

    struct LabError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A tool's path from PATH or the sbin folders, where iproute2 lives.
    static func tool(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in path + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"] {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func requireTool(_ name: String) throws -> String {
        guard let path = tool(name) else { throw LabError("\(name) is not installed") }
        return path
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private static func check(_ executable: String, _ arguments: [String]) throws {
        let result = try run(executable, arguments)
        guard result.status == 0 else {
            throw LabError("\(executable) \(arguments.joined(separator: " ")): \(result.output)")
        }
    }
}
