// The quotas' errors (docs/SECURITY.md, "Quotas"; `HubConfiguration.Quotas`).

extension APIError {
    /// `POST /auth/guest` from an address that created its burst of guests; with `Retry-After`.
    package static let tooManyGuests = APIError(
        status: 429, code: "too_many_guests", message: "Too many new guests from your network. Try again later")
    /// `POST /sessions` by a user who already hosts the most live sessions allowed (no `Retry-After`: ending one
    /// of them, or its idle timeout, frees a place).
    package static let tooManySessions = APIError(
        status: 429, code: "too_many_sessions",
        message: "You already host the most live sessions allowed. End one to create another")
    /// `POST /sessions` by a user who created its burst of sessions (ending and creating in a loop); with
    /// `Retry-After`.
    package static let tooManyNewSessions = APIError(
        status: 429, code: "too_many_new_sessions", message: "You are creating sessions too fast. Try again later")
    /// A photo upload beyond the user's (or its address's) photo bytes per minute; with `Retry-After`.
    package static let tooManyPhotoUploads = APIError(
        status: 429, code: "too_many_photo_uploads", message: "Too many photo uploads. Try again later")
    /// A photo that would take the user's stored photo bytes over their quota.
    package static let photoQuotaExceeded = APIError(
        status: 413, code: "photo_quota_exceeded", message: "Photo storage quota exceeded")
}
