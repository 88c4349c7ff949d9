// Every error code pongd defines beyond the transport's own (APIError.swift). The HTTP status applies to HTTP
// responses; on a WebSocket the same code and message travel as `error {code, message}` (`ServerMessage.error(_:)`).

extension APIError {
    // MARK: Reading requests and frames

    /// Not JSON, not UTF-8, or not a JSON object.
    package static let malformedJSON = APIError(
        status: 400, code: "malformed_json", message: "The message is not a valid JSON object")
    /// A message `"type"` the server does not know.
    package static func unknownType(_ type: String) -> APIError {
        // At most 40 scalars of the type are echoed (40 characters could be megabytes of combining marks).
        let shown = String(String.UnicodeScalarView(type.unicodeScalars.prefix(40)))
        return APIError(status: 400, code: "unknown_type", message: "Unknown message type \"\(shown)\"")
    }
    /// A required field is absent.
    package static func missingField(_ field: String) -> APIError {
        APIError(status: 400, code: "missing_field", message: "Missing field \"\(field)\"")
    }
    /// A field has the wrong type or a value outside its set or range.
    package static func invalidField(_ field: String) -> APIError {
        APIError(status: 400, code: "invalid_field", message: "Invalid value for field \"\(field)\"")
    }
    /// A WebSocket text frame over the limit.
    package static func messageTooLarge(limit: Int) -> APIError {
        APIError(status: 413, code: "message_too_large", message: "Messages are limited to \(limit) bytes")
    }

    // MARK: Transport (docs/SECURITY.md)

    /// An upgrade to a WebSocket endpoint without `Connection: upgrade` or without a valid `Sec-WebSocket-Key`.
    package static let invalidWebSocketUpgrade = APIError(
        status: 400, code: "invalid_websocket_upgrade", message: "Not a valid WebSocket upgrade request")
    /// An upgrade asking for a WebSocket version other than 13 (answered with `Sec-WebSocket-Version: 13`).
    package static let unsupportedWebSocketVersion = APIError(
        status: 426, code: "unsupported_websocket_version", message: "Use WebSocket version 13")
    /// One user holds as many WebSockets as allowed; the new one is closed with 4008.
    package static let tooManyConnections = APIError(
        status: 429, code: "too_many_connections", message: "Too many connections. Close some and try again")

    // MARK: Exposure

    /// A request, CORS preflight or WebSocket upgrade from a web page whose `Origin` is not allowed
    /// (`pongd serve --allowed-origin`; by default only the server's own origin).
    package static let originNotAllowed = APIError(
        status: 403, code: "origin_not_allowed", message: "This website may not use this server")

    // MARK: Accounts and profiles

    /// Signup name empty, over 100 characters or 400 bytes, invisible, or holding control or bidi characters.
    package static let invalidName = APIError(
        status: 400, code: "invalid_name", message: "Enter your name (up to 100 characters)")
    /// Display name empty, over 20 characters or 128 bytes, invisible, or holding control or bidi characters.
    package static let invalidDisplayName = APIError(
        status: 400, code: "invalid_display_name", message: "Display name must be 1 to 20 characters")
    /// Not an email address.
    package static let invalidEmail = APIError(
        status: 400, code: "invalid_email", message: "Enter a valid email address")
    /// Password under 10 characters.
    package static let passwordTooShort = APIError(
        status: 400, code: "weak_password", message: "Password must be at least 10 characters")
    /// Password over 256 characters or 1024 bytes.
    package static let passwordTooLong = APIError(
        status: 400, code: "password_too_long", message: "Password must be at most 256 characters")
    /// Password on the common-passwords list.
    package static let passwordTooCommon = APIError(
        status: 400, code: "weak_password", message: "This password is too common. Choose another one")
    /// Signup without `acceptTerms: true`.
    package static let termsNotAccepted = APIError(
        status: 400, code: "terms_not_accepted", message: "Accept the terms to create an account")
    /// Signup with an email that has an account.
    package static let emailTaken = APIError(
        status: 409, code: "email_taken", message: "An account with this email already exists")
    /// Too many logins or signups from one client address, or logins to one account; `Retry-After` says when.
    package static let tooManyLoginAttempts = APIError(
        status: 429, code: "too_many_attempts", message: "Too many attempts. Wait a moment and try again")
    /// The password pool's queue is full (a burst of logins or signups); `Retry-After: 1`.
    package static let serverBusy = APIError(
        status: 503, code: "server_busy", message: "The server is busy. Try again in a moment")
    /// Login with an unknown email or a wrong password (the same answer for both).
    package static let invalidCredentials = APIError(
        status: 401, code: "invalid_credentials", message: "Wrong email or password")
    /// No bearer token where one is required.
    package static let unauthorized = APIError(status: 401, code: "unauthorized", message: "Sign in to continue")
    /// A token that is malformed, forged, or of the wrong kind.
    package static let invalidToken = APIError(
        status: 401, code: "invalid_token", message: "Your sign-in is not valid. Please sign in again")
    /// A token past its expiry.
    package static let tokenExpired = APIError(
        status: 401, code: "token_expired", message: "Your sign-in has expired. Please sign in again")
    /// Photo wider or taller than 4096 pixels, or over 64 MiB once decoded (before any pixel is decoded).
    package static let photoDimensionsTooLarge = APIError(
        status: 400, code: "photo_dimensions_too_large", message: "Photo must be at most 4096×4096 pixels")
    /// Photo not base64, not a JPEG or PNG, malformed, or not decodable.
    package static let invalidPhoto = APIError(
        status: 400, code: "invalid_photo", message: "Photo must be a JPEG or PNG image")
    /// Photo over 2 MB once decoded.
    package static let photoTooLarge = APIError(
        status: 413, code: "photo_too_large", message: "Photo must be 2 MB or smaller")

    // MARK: Sessions

    /// A code that cannot be a session code (wrong length or characters).
    package static let invalidSessionCode = APIError(
        status: 400, code: "invalid_session_code", message: "Enter the 6-character code from the dashboard")
    /// No live session with this code.
    package static let sessionNotFound = APIError(
        status: 404, code: "session_not_found", message: "Session not found or expired")
    /// Too many join attempts from one client address (codes cannot be guessed); `Retry-After` says when to retry.
    package static let tooManyJoinAttempts = APIError(
        status: 429, code: "too_many_attempts", message: "Too many attempts. Wait a moment and try again")
    /// Too many lookups of unknown session codes (or of sessions the caller has no seat in) from one client address;
    /// `Retry-After` says when to retry (docs/SECURITY.md, "Code guessing").
    package static let tooManyCodeGuesses = APIError(
        status: 429, code: "too_many_code_guesses",
        message: "Too many unknown session codes. Check the code and try again in a moment")
    /// Media frames for a track that `POST /streams/start` did not start.
    package static let streamNotStarted = APIError(
        status: 409, code: "stream_not_started", message: "Start your stream before sending media")
    /// Every seat is taken.
    package static let sessionFull = APIError(status: 409, code: "session_full", message: "This session is full")
    /// Joining or starting after the game started.
    package static let gameInProgress = APIError(
        status: 409, code: "game_in_progress", message: "The game has already started")
    /// Start or end by anyone but the host, or a dashboard for someone else's session.
    package static let notHost = APIError(status: 403, code: "not_host", message: "Only the host can do this")
    /// Start with fewer than 2 ready, connected players.
    package static let notEnoughReadyPlayers = APIError(
        status: 409, code: "not_enough_ready_players", message: "At least 2 players must be ready to start")
    /// A socket or stream for a user without a seat in the session.
    package static let notJoined = APIError(status: 403, code: "not_joined", message: "Join the session first")
    /// `POST /streams/start` with neither video nor audio.
    package static let noMedia = APIError(
        status: 400, code: "no_media", message: "Stream video, audio, or both")
    /// `POST /streams/start` asking for a track whose permission is not granted.
    package static func permissionNotGranted(_ kind: MediaKind) -> APIError {
        let message = switch kind {
        case .video: "Allow camera access, or join without video"
        case .audio: "Allow microphone access, or continue without audio"
        }
        return APIError(status: 409, code: "permission_not_granted", message: message)
    }

    // MARK: Journey (WebSocket)

    /// A message the journey does not accept at this step; `message` says what comes first.
    package static func outOfOrder(_ message: String) -> APIError {
        APIError(status: 409, code: "out_of_order", message: message)
    }
    /// `ready` while a readiness check fails; `message` is that check's text.
    package static func notReady(_ message: String) -> APIError {
        APIError(status: 409, code: "not_ready", message: message)
    }
    /// `connectionTest.start` while one runs.
    package static let testInProgress = APIError(
        status: 409, code: "test_in_progress", message: "A connection test is already running")
    /// `hello` with a resume token that is not this seat's.
    package static let invalidResumeToken = APIError(
        status: 401, code: "invalid_resume_token", message: "This seat cannot be resumed. Join the session again")
    /// Any message on a dashboard socket.
    package static let dashboardReadOnly = APIError(
        status: 409, code: "dashboard_read_only", message: "The dashboard only listens")
}
