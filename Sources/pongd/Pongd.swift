import ArgumentParser

/// `pongd`: the LockN Score session server and its tools.
@main
struct Pongd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pongd",
        abstract: "The LockN Score session server: sessions, lobby, live audio and bounce detection.",
        subcommands: [ServeCommand.self, DetectCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
