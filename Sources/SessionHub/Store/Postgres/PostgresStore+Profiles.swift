import NIOCore
import PongWire
import PostgresNIO

extension PostgresStore {
    package func upsertProfile(_ profile: StoredProfile) throws(StoreError) {
        let user = profile.userId.rawValue
        try write { transaction throws(StoreError) in
            if let photoId = profile.photoId {
                let owner = try transaction.one("SELECT userId FROM photo WHERE id = \(photoId.rawValue)") {
                    row throws(StoreError) in try row.value("userId", as: String.self)
                }
                guard owner == user else {
                    throw StoreError.constraint.with(detail: "photo \(photoId) is not a photo of \(profile.userId)")
                }
            }
            // FOR UPDATE: the row stays as read until the commit (writes are serialized anyway).
            let previous = try transaction.one("SELECT photoId FROM profile WHERE userId = \(user) FOR UPDATE") {
                row throws(StoreError) in try row.value("photoId", as: String?.self)
            } ?? nil
            try transaction.run("""
                INSERT INTO profile (\(unescaped: StoredProfile.columns)) VALUES (\(user), \(profile.displayName),
                    \(profile.photoId?.rawValue), \(StoreTime.milliseconds(profile.updatedAt)))
                ON CONFLICT (userId) DO UPDATE SET
                    displayName = excluded.displayName, photoId = excluded.photoId, updatedAt = excluded.updatedAt
                """)
            if let previous, previous != profile.photoId?.rawValue {
                try transaction.run("DELETE FROM photo WHERE id = \(previous)")
            }
        }
    }

    package func profile(userId: UserID) throws(StoreError) -> StoredProfile? {
        try one("SELECT \(unescaped: StoredProfile.columns) FROM profile WHERE userId = \(userId.rawValue)",
                as: StoredProfile.init(postgres:))
    }

    package func savePhoto(_ photo: StoredPhoto) throws(StoreError) {
        try write { transaction throws(StoreError) in try insert(photo, in: transaction) }
    }

    package func photo(id: PhotoID) throws(StoreError) -> StoredPhoto? {
        try one("SELECT \(unescaped: StoredPhoto.columns) FROM photo WHERE id = \(id.rawValue)",
                as: StoredPhoto.init(postgres:))
    }

    package func savePhoto(_ photo: StoredPhoto, storedBytesLimit: Int) throws(StoreError) -> Bool {
        let user = photo.userId.rawValue
        return try write { transaction throws(StoreError) in
            // The user's row locked first: two writers (or two nodes) storing photos for one user take turns, so the
            // sum below is exact for both.
            try transaction.run("SELECT 1 FROM \"user\" WHERE id = \(user) FOR UPDATE")
            let stored = try transaction.one("""
                SELECT COALESCE(SUM(octet_length(bytes)), 0)::BIGINT AS stored FROM photo
                WHERE userId = \(user) AND id IS DISTINCT FROM (SELECT photoId FROM profile WHERE userId = \(user))
                """) { row throws(StoreError) in try row.value("stored", as: Int64.self) } ?? 0
            guard Int(stored) + photo.bytes.count <= storedBytesLimit else { return false }
            try insert(photo, in: transaction)
            return true
        }
    }

    private func insert(_ photo: StoredPhoto, in transaction: PostgresTransaction) throws(StoreError) {
        try transaction.run("""
            INSERT INTO photo (\(unescaped: StoredPhoto.columns)) VALUES (\(photo.id.rawValue),
                \(photo.userId.rawValue), \(photo.format.rawValue), \(ByteBuffer(bytes: photo.bytes)),
                \(StoreTime.milliseconds(photo.createdAt)))
            """)
    }
}
