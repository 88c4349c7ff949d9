import ArgumentParser

/// `pong-player-sim`: emulates many phones through the whole player journey against a pongd server.
///
/// The journey driver arrives with issue [4/4]; until then the tool only validates its arguments.
@main
struct PlayerSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pong-player-sim",
        abstract: "Emulate phones joining pongd sessions and streaming audio (journey driver: issue [4/4])."
    )

    @Option(help: "pongd base URL, e.g. http://127.0.0.1:8080.")
    var server = "http://127.0.0.1:8080"

    func run() throws {
        throw ValidationError("the phone journey is not implemented yet (issue [4/4])")
    }
}
