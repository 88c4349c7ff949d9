import ArgumentParser

/// `pong-player-sim`: emulates many phones through the whole player journey against a pongd server.
///
/// `pong-player-sim run …` (the default) is the load and accuracy run; `pong-player-sim probe …` runs one phone's
/// connection test only. See `docs/SIMULATOR.md`.
@main
struct PlayerSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pong-player-sim",
        abstract: "Emulate phones joining pongd sessions and streaming Opus audio; measure join→ready, bounces.",
        subcommands: [RunCommand.self, ProbeCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
