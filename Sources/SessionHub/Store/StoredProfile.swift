#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import PongWire

/// A row of `profile`: what the lobby shows of a user, kept for returning users.
package struct StoredProfile: Hashable, Sendable {
    /// Primary key; the user it belongs to.
    package var userId: UserID
    /// Validated display name (`DisplayName`).
    package var displayName: String
    /// The profile photo, if any (a photo of the same user).
    package var photoId: PhotoID?
    /// Last change (milliseconds).
    package var updatedAt: Date

    package init(userId: UserID, displayName: String, photoId: PhotoID? = nil, updatedAt: Date) {
        self.userId = userId
        self.displayName = displayName
        self.photoId = photoId
        self.updatedAt = StoreTime.rounded(updatedAt)
    }
}

extension StoredProfile {
    static let columns = "userId, displayName, photoId, updatedAt"

    init(row: Row) throws(StoreError) {
        userId = UserID(try row.value("userId"))
        displayName = try row.value("displayName")
        photoId = (try row.value("photoId") as String?).map(PhotoID.init)
        updatedAt = try row.date("updatedAt")
    }

    var arguments: StatementArguments {
        [userId.rawValue, displayName, photoId?.rawValue, StoreTime.milliseconds(updatedAt)]
    }
}
