/// Every error pongd sends, in one list: docs/PROTOCOL.md's error tables are checked against it and `HubMetrics`
/// makes a counter up front for each code in it. A new error belongs here.
extension APIError {
    /// One of each error code, with the limits it states (a parameterised message gets a sample argument).
    package static let all: [APIError] = [
        // The transport's own (APIError.swift).
        .notFound("/x"), .methodNotAllowed("PUT"), .payloadTooLarge(limit: HTTPLimits.maxBodyBytes), .internal,
        // Reading requests and messages.
        .malformedJSON, .unknownType("x"), .missingField("f"), .invalidField("f"),
        .messageTooLarge(limit: MessageCodec.maxTextFrameBytes),
        // The transport's limits (docs/SECURITY.md).
        .invalidWebSocketUpgrade, .unsupportedWebSocketVersion, .tooManyConnections,
        // Accounts, profiles, sessions, the journey.
        .invalidName, .invalidDisplayName, .invalidEmail, .passwordTooShort, .passwordTooCommon, .passwordTooLong,
        .termsNotAccepted,
        .emailTaken, .invalidCredentials, .unauthorized, .invalidToken, .tokenExpired, .invalidPhoto, .photoTooLarge,
        .photoDimensionsTooLarge,
        // Quotas (APIError+Quotas.swift, docs/SECURITY.md).
        .tooManyGuests, .tooManySessions, .tooManyNewSessions, .tooManyPhotoUploads, .photoQuotaExceeded,
        .invalidSessionCode, .sessionNotFound, .tooManyJoinAttempts, .sessionFull, .gameInProgress, .notHost,
        .notEnoughReadyPlayers, .notJoined, .noMedia, .permissionNotGranted(.video), .permissionNotGranted(.audio),
        .outOfOrder("m"), .notReady("m"), .testInProgress, .invalidResumeToken,
        .dashboardReadOnly, .originNotAllowed, .tooManyLoginAttempts, .serverBusy,
        .tooManyCodeGuesses,
        // Several nodes (APIError+Cluster.swift, docs/SCALING.md).
        .sessionUnavailable, .storeUnavailable,
        // Social sign-in (APIError+Social.swift).
        .unknownProvider, .invalidIDToken, .idTokenWrongIssuer, .idTokenWrongAudience, .idTokenNotYetValid,
        .idTokenNonceMismatch, .idTokenExpired, .providerUnavailable,
    ] + media

    /// The errors only a binary frame gets: the frame's own (`MediaFrameError`), a frame for a track not started,
    /// and its track's (`IngestError`).
    package static let media: [APIError] = [
        .streamNotStarted, MediaFrameError.tooShort(count: 3).apiError,
        MediaFrameError.tooLarge(count: 300_000, limit: MediaFrame.maxBytes).apiError,
        MediaFrameError.unknownKind(9).apiError, MediaFrameError.unknownCodec(9, kind: .audio).apiError,
        MediaFrameError.emptyPayload(kind: .audio).apiError,
        IngestError.codecMismatch(expected: .opus, got: .aac).apiError, IngestError.undecodable(.opus).apiError,
    ]
}
