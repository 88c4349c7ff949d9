/// `POST /users/profile` body: `{displayName, photo?}`; `photo` is a base64 JPEG or PNG of at most 2 MB.
package struct ProfileRequest: Codable, Hashable, Sendable {
    /// Display name (1–20 characters after trimming).
    package var displayName: String
    /// Base64 image, optionally as a `data:image/…;base64,` URL; absent keeps the current photo.
    package var photo: String?

    package init(displayName: String, photo: String? = nil) {
        self.displayName = displayName
        self.photo = photo
    }
}

/// The profile of `POST /users/profile` and `GET /users/me`: `{userId, displayName, photoURL, guest}`.
///
/// `displayName` and `photoURL` are `null` until set (DESIGN.md says only "profile"; these are the fields).
package struct Profile: Codable, Hashable, Sendable {
    /// The account.
    package var userId: UserID
    /// Display name, or nil before the first profile.
    package var displayName: String?
    /// Where the photo is served, or nil.
    package var photoURL: String?
    /// True for a guest account.
    package var guest: Bool

    package init(userId: UserID, displayName: String?, photoURL: String?, guest: Bool) {
        self.userId = userId
        self.displayName = displayName
        self.photoURL = photoURL
        self.guest = guest
    }

    private enum CodingKeys: String, CodingKey { case userId, displayName, photoURL, guest }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userId, forKey: .userId)
        try container.encode(displayName, forKey: .displayName)  // explicit null
        try container.encode(photoURL, forKey: .photoURL)  // explicit null
        try container.encode(guest, forKey: .guest)
    }
}
