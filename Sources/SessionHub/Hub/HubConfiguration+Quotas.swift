extension HubConfiguration {
    /// What one client address or one user may make and keep (docs/SECURITY.md, "Quotas"); `pongd serve` sets each
    /// with a flag (`QuotaOptions`).
    package struct Quotas: Sendable, Equatable {
        /// Guests (`POST /auth/guest`) one client address may create at once, and the sustained rate beyond that
        /// (429 `too_many_guests`). A venue puts 100 phones behind one address: the burst lets all of them in at
        /// once; the refill (one a minute) keeps a flood from one address to about 1,600 guests a day.
        package var guestBurst: Double = 200
        package var guestsPerSecond: Double = 1.0 / 60
        /// Live (not ended) sessions one user may host at once (429 `too_many_sessions`).
        package var maxLiveSessionsPerUser = 5
        /// Sessions one user may create at once, and the sustained rate beyond (429 `too_many_new_sessions`): ending
        /// sessions to create new ones still leaves a stored row each.
        package var sessionBurst: Double = 20
        package var sessionsPerSecond: Double = 1.0 / 60
        /// Photo bytes one user may keep stored (the profile's photo and any upload not yet in it): an upload
        /// beyond is 413 `photo_quota_exceeded`.
        package var photoStorageBytesPerUser = 4 * 1024 * 1024
        /// Photo bytes one user may upload at once, and the sustained rate beyond (429 `too_many_photo_uploads`).
        /// At least one largest photo (`ProfilePhoto.maxBytes`) fits the burst.
        package var photoUploadBurstBytes: Double = 8 * 1024 * 1024
        package var photoUploadBytesPerSecond: Double = 2 * 1024 * 1024 / 60
        /// The same per client address, all its users together (a venue's phones share it).
        package var addressPhotoUploadBurstBytes: Double = 64 * 1024 * 1024
        package var addressPhotoUploadBytesPerSecond: Double = 16 * 1024 * 1024 / 60
        /// A guest in no live session (never joined one, or its sessions ended) is deleted this long after it was
        /// created, with its profile and photo; the check runs at most every `guestPurgeInterval`, when a guest is
        /// created (guests only accumulate then) and when the hub starts.
        package var unjoinedGuestLifetime: Duration = .seconds(24 * 3600)
        package var guestPurgeInterval: Duration = .seconds(3600)

        package init() {}
    }
}
