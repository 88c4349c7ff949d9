#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import PongWire

/// A row of `photo`: one profile photo's bytes.
package struct StoredPhoto: Hashable, Sendable {
    /// Primary key.
    package var id: PhotoID
    /// The owner; the photo goes when the user goes.
    package var userId: UserID
    /// JPEG or PNG (`contentType` column: `image/jpeg` or `image/png`).
    package var format: ProfilePhoto.Format
    /// The image file's bytes.
    package var bytes: [UInt8]
    /// Upload time (milliseconds).
    package var createdAt: Date

    package init(id: PhotoID, userId: UserID, format: ProfilePhoto.Format, bytes: [UInt8], createdAt: Date) {
        self.id = id
        self.userId = userId
        self.format = format
        self.bytes = bytes
        self.createdAt = StoreTime.rounded(createdAt)
    }

    /// A validated upload as a row.
    package init(id: PhotoID, userId: UserID, photo: ProfilePhoto, createdAt: Date) {
        self.init(id: id, userId: userId, format: photo.format, bytes: photo.bytes, createdAt: createdAt)
    }
}

extension StoredPhoto {
    static let columns = "id, userId, contentType, bytes, createdAt"

    init(row: Row) throws(StoreError) {
        id = PhotoID(try row.value("id"))
        userId = UserID(try row.value("userId"))
        format = try row.enumeration("contentType")
        bytes = [UInt8](try row.value("bytes") as Data)
        createdAt = try row.date("createdAt")
    }

    var arguments: StatementArguments {
        [id.rawValue, userId.rawValue, format.rawValue, Data(bytes), StoreTime.milliseconds(createdAt)]
    }
}
