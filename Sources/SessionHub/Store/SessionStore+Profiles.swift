import GRDB
import PongWire

extension SessionStore {
    /// Creates or replaces the user's profile. A `photoId` must name a photo of the same user (else
    /// `.constraint`); the photo it replaces, if any, is deleted. Throws `.constraint` for an unknown user.
    package func upsertProfile(_ profile: StoredProfile) throws(StoreError) {
        try write { db in
            if let photoId = profile.photoId {
                let owner = try String.fetchOne(db, sql: "SELECT userId FROM photo WHERE id = ?",
                                                arguments: [photoId.rawValue])
                guard owner == profile.userId.rawValue else {
                    throw StoreError.constraint.with(detail: "photo \(photoId) is not a photo of \(profile.userId)")
                }
            }
            let previous = try String.fetchOne(db, sql: "SELECT photoId FROM profile WHERE userId = ?",
                                               arguments: [profile.userId.rawValue])
            try db.execute(sql: """
                INSERT INTO profile (\(StoredProfile.columns)) VALUES (?, ?, ?, ?)
                ON CONFLICT (userId) DO UPDATE SET
                    displayName = excluded.displayName, photoId = excluded.photoId, updatedAt = excluded.updatedAt
                """, arguments: profile.arguments)
            if let previous, previous != profile.photoId?.rawValue {
                try db.execute(sql: "DELETE FROM photo WHERE id = ?", arguments: [previous])
            }
        }
    }

    /// The user's profile; nil if the user never set one.
    package func profile(userId: UserID) throws(StoreError) -> StoredProfile? {
        try fetchOne(sql: "SELECT \(StoredProfile.columns) FROM profile WHERE userId = ?",
                     arguments: [userId.rawValue], as: StoredProfile.init(row:))
    }

    /// Stores a photo of a user (point the profile at it with `upsertProfile`). Throws `.duplicateKey` for a
    /// taken id, `.constraint` for an unknown user.
    package func savePhoto(_ photo: StoredPhoto) throws(StoreError) {
        try write { db in
            try db.execute(sql: "INSERT INTO photo (\(StoredPhoto.columns)) VALUES (?, ?, ?, ?, ?)",
                           arguments: photo.arguments)
        }
    }

    /// The photo with this id; nil if none.
    package func photo(id: PhotoID) throws(StoreError) -> StoredPhoto? {
        try fetchOne(sql: "SELECT \(StoredPhoto.columns) FROM photo WHERE id = ?", arguments: [id.rawValue],
                     as: StoredPhoto.init(row:))
    }

    /// Stores a photo of a user as `savePhoto` does, unless the user's stored photo bytes would then pass
    /// `storedBytesLimit`: the photo the profile shows now is not counted (a new one replaces it), every other of
    /// theirs is (uploads in flight). Returns whether the photo was stored.
    package func savePhoto(_ photo: StoredPhoto, storedBytesLimit: Int) throws(StoreError) -> Bool {
        try write { db in
            let stored = try Int.fetchOne(db, sql: """
                SELECT COALESCE(SUM(length(bytes)), 0) FROM photo
                WHERE userId = :user AND id IS NOT (SELECT photoId FROM profile WHERE userId = :user)
                """, arguments: ["user": photo.userId.rawValue]) ?? 0
            guard stored + photo.bytes.count <= storedBytesLimit else { return false }
            try db.execute(sql: "INSERT INTO photo (\(StoredPhoto.columns)) VALUES (?, ?, ?, ?, ?)",
                           arguments: photo.arguments)
            return true
        }
    }
}
