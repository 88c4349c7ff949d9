import Foundation
import PongWire

/// Guests, profiles and photos (sign-up and login: `HubRouter+Passwords.swift`).
extension HubRouter {
    /// `POST /auth/guest`: limited per client address (429 `too_many_guests` with `Retry-After`); now and then
    /// (`guestPurgeInterval`) it also starts the purge of old unjoined guests on the worker, beside the answer
    /// (`SessionHub.purgeUnjoinedGuestsIfDue`): guests accumulate only here.
    func guest(_ request: HTTPRequest, reply: Reply) {
        if let wait = hub.quotas.admitGuest(address: request.remoteAddress) {
            hub.logger.info("guest limited", metadata: ["http.remote": "\(request.remoteAddress)"])
            return reply.send(.error(.tooManyGuests, retryAfter: wait))
        }
        hub.worker.async { hub.purgeUnjoinedGuestsIfDue() }
        onWorker(reply) { () throws(APIError) in try guest() }
    }

    func guest() throws(APIError) -> HTTPResponse {
        let user = StoredUser(id: UserID(RandomID.hex(bytes: 16)), name: "Guest", email: nil, passwordHash: nil,
                              isGuest: true, createdAt: Date())
        do {
            try hub.store.createUser(user)
        } catch {
            throw storeFailure(error)
        }
        return try json(201, AuthResponse(userId: user.id, token: issue(user.id, .guest), guest: true))
    }

    /// `POST /users/profile`. A photo is checked and decoded on the bounded photo pool (503 `server_busy` when it is
    /// full), never on the worker; so is a whole body over the JSON limit (parsing megabytes of JSON takes about a
    /// second). A small body is read on the worker.
    func updateProfile(_ request: HTTPRequest, reply: Reply) {
        if request.body.count > Self.maxJSONBodyBytes {
            return on(hub.photos, named: "photo", reply) { () throws(APIError) in
                let (token, update, name) = try readProfile(request)
                if let limited = chargePhoto(update, of: token, request) { return limited }
                let photo = try update.photo.map { text throws(APIError) in try ProfilePhoto(base64: text) }
                return try saveProfile(token, name: name, photo: photo)
            }
        }
        onWorker(reply) { () throws(APIError) -> HTTPResponse? in
            let (token, update, name) = try readProfile(request)
            guard let photo = update.photo else { return try saveProfile(token, name: name, photo: nil) }
            if let limited = chargePhoto(update, of: token, request) { return limited }
            on(hub.photos, named: "photo", reply) { () throws(APIError) in
                try saveProfile(token, name: name, photo: try ProfilePhoto(base64: photo))
            }
            return nil
        }
    }

    private func readProfile(_ request: HTTPRequest) throws(APIError)
        -> (token: AccessToken, update: ProfileRequest, name: DisplayName)
    {
        let token = try caller(request, allowing: [.user, .guest])
        let update = try body(ProfileRequest.self, of: request, limit: HTTPHandler.maxBodyBytes)
        return (token, update, try DisplayName(validating: update.displayName))
    }

    /// Counts a profile update's photo (its decoded size, told by its base64 length) against the photo bytes of
    /// its user and address; the 429 `too_many_photo_uploads` answer (with `Retry-After`) when over, else nil.
    /// Counted before the photo is decoded: a refused or invalid photo costs the decoding all the same.
    private func chargePhoto(_ update: ProfileRequest, of token: AccessToken, _ request: HTTPRequest) -> HTTPResponse? {
        guard let photo = update.photo else { return nil }
        let bytes = photo.utf8.count / 4 * 3
        guard let wait = hub.quotas.chargePhoto(user: token.userId, address: request.remoteAddress, bytes: bytes)
        else { return nil }
        hub.logger.info("photo uploads limited", metadata: ["user.id": "\(token.userId)"])
        return .error(.tooManyPhotoUploads, retryAfter: wait)
    }

    private func saveProfile(_ token: AccessToken, name: DisplayName, photo: ProfilePhoto?) throws(APIError)
        -> HTTPResponse
    {
        let saved: Profile?
        do throws(StoreError) {
            saved = try storeProfile(of: token.userId, name: name, photo: photo)
        } catch {
            throw error == .notFound ? .invalidToken : storeFailure(error)
        }
        guard let profile = saved else { throw .photoQuotaExceeded }
        // Only the user's own sessions (the index), never every live session.
        for code in hub.quotas.sessions(of: token.userId) {
            let user = token.userId
            hub.session(code)?.submit { state, now in
                state.profileUpdated(user: user, displayName: profile.displayName, photoURL: profile.photoURL, now: now)
            }
        }
        return try json(200, profile)
    }

    /// Writes the profile (and its new photo) and returns it as answered; nil when the photo would take the user
    /// over their stored photo bytes (nothing is written then). `.notFound` for an unknown user (a purged guest).
    private func storeProfile(of user: UserID, name: DisplayName, photo: ProfilePhoto?) throws(StoreError) -> Profile? {
        guard try hub.store.user(id: user) != nil else { throw StoreError.notFound }
        var photoId = try hub.store.profile(userId: user)?.photoId
        if let photo {
            var random = SystemRandomNumberGenerator()
            let stored = StoredPhoto(id: PhotoID.generate(using: &random), userId: user, photo: photo, createdAt: Date())
            let limit = hub.quotas.limits.photoStorageBytesPerUser
            guard try hub.store.savePhoto(stored, storedBytesLimit: limit) else { return nil }
            photoId = stored.id
        }
        try hub.store.upsertProfile(StoredProfile(userId: user, displayName: name.value, photoId: photoId,
                                                  updatedAt: Date()))
        guard let updated = try self.profile(of: user) else { throw StoreError.notFound }
        return updated
    }

    func me(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let token = try caller(request)
        let profile: Profile?
        do {
            profile = try self.profile(of: token.userId)
        } catch {
            throw storeFailure(error)
        }
        guard let profile else { throw .invalidToken }
        return try json(200, profile)
    }

    func photo(id: String) throws(APIError) -> HTTPResponse {
        let stored: StoredPhoto?
        do throws(StoreError) {
            stored = try hub.store.photo(id: PhotoID(id))
        } catch {
            throw storeFailure(error)
        }
        guard let stored else { throw .notFound("/photos/\(id)") }
        return HTTPResponse(status: 200, contentType: stored.format.rawValue, body: stored.bytes,
                            headers: [("Cache-Control", "public, max-age=31536000, immutable"),
                                      ("Content-Security-Policy", Self.photoContentSecurityPolicy)])
    }

    /// Served with every photo: nothing in it may run or load anything, even if a browser opens it as a page.
    static let photoContentSecurityPolicy = "default-src 'none'; sandbox"

    /// The profile response of a user (a user without a profile has null name and photo); nil for an unknown user.
    func profile(of user: UserID) throws(StoreError) -> Profile? {
        guard let stored = try hub.store.user(id: user) else { return nil }
        let profile = try hub.store.profile(userId: user)
        return Profile(userId: user, displayName: profile?.displayName,
                       photoURL: profile?.photoId.map { "/photos/\($0)" }, guest: stored.isGuest)
    }

    func issue(_ user: UserID, _ kind: AccessToken.Kind) -> String {
        hub.signer.issue(userId: user, kind: kind, now: Date(), lifetime: hub.configuration.tokenLifetime)
    }
}
