import NIOCore

/// A socket whose session is being looked up in the store (several nodes): counted against its user's sockets from
/// its opening, it keeps what it sends meanwhile (at most `SessionHub.maxHeldWhileLocating` text messages) and is
/// closed with 4005 at the hello deadline if it is still waiting then (`SessionHub+WebSockets`).
struct LocatingSocket: Sendable {
    /// When the socket opened: its hello deadline runs from here, as a socket's whose session is in memory.
    let opened: ContinuousClock.Instant
    /// The text messages it sent meanwhile, in order.
    var held: [[UInt8]] = []
    /// The close at the hello deadline, on the socket's event loop; cancelled once the wait ends.
    var deadline: Scheduled<Void>?
}
