import ArgumentParser
import SessionHub

/// `pongd serve`'s flags for the quotas (docs/SECURITY.md, "Quotas"); each default is `HubConfiguration.Quotas`'.
struct QuotaOptions: ParsableArguments {
    @Option(help: "Guests one client address may create at once; beyond, --guests-per-hour (429 too_many_guests).")
    var guestBurst: Double = 200

    @Option(help: "Sustained guests per hour per client address.")
    var guestsPerHour: Double = 60

    @Option(help: "Live sessions one user may host at once (429 too_many_sessions).")
    var maxSessionsPerUser = 5

    @Option(help: "Sessions one user may create at once; beyond, --sessions-per-hour (429 too_many_new_sessions).")
    var sessionBurst: Double = 20

    @Option(help: "Sustained sessions created per hour per user.")
    var sessionsPerHour: Double = 60

    @Option(help: "KiB of photos one user may keep stored (413 photo_quota_exceeded beyond).")
    var photoStorageKibPerUser = 4096

    @Option(help: "KiB of photos one user may upload at once; beyond, --photo-upload-kib-per-minute (429 too_many_photo_uploads).")
    var photoUploadBurstKib: Double = 8192

    @Option(help: "Sustained KiB of photo uploads per minute per user.")
    var photoUploadKibPerMinute: Double = 2048

    @Option(help: "KiB of photos all users of one client address may upload at once; beyond, --address-photo-upload-kib-per-minute.")
    var addressPhotoUploadBurstKib: Double = 65536

    @Option(help: "Sustained KiB of photo uploads per minute per client address.")
    var addressPhotoUploadKibPerMinute: Double = 16384

    @Option(help: "Hours after which a guest in no live session (never joined one, or all of theirs ended) is deleted.")
    var unjoinedGuestHours: Double = 24

    /// The quotas these flags describe; throws a `ValidationError` for a value out of range.
    func quotas() throws -> HubConfiguration.Quotas {
        guard [guestBurst, sessionBurst].allSatisfy({ (1...1_000_000).contains($0) }),
              [guestsPerHour, sessionsPerHour].allSatisfy({ (0.001...360_000_000).contains($0) }),
              (1...10_000).contains(maxSessionsPerUser)
        else {
            throw ValidationError("--guest-burst/--session-burst must be 1–1000000, --guests-per-hour/"
                + "--sessions-per-hour 0.001–360000000 and --max-sessions-per-user 1–10000")
        }
        let kib = [Double(photoStorageKibPerUser), photoUploadBurstKib, addressPhotoUploadBurstKib]
        guard kib.allSatisfy({ (1...1_073_741_824).contains($0) }),
              [photoUploadKibPerMinute, addressPhotoUploadKibPerMinute].allSatisfy({ (1...1_073_741_824).contains($0) })
        else {
            throw ValidationError("photo quotas must be 1–1073741824 KiB (a burst below 2048 KiB is raised to it)")
        }
        guard (0.001...87_600).contains(unjoinedGuestHours) else {
            throw ValidationError("--unjoined-guest-hours must be 0.001–87600")
        }
        var quotas = HubConfiguration.Quotas()
        quotas.guestBurst = guestBurst
        quotas.guestsPerSecond = guestsPerHour / 3600
        quotas.maxLiveSessionsPerUser = maxSessionsPerUser
        quotas.sessionBurst = sessionBurst
        quotas.sessionsPerSecond = sessionsPerHour / 3600
        quotas.photoStorageBytesPerUser = photoStorageKibPerUser * 1024
        quotas.photoUploadBurstBytes = photoUploadBurstKib * 1024
        quotas.photoUploadBytesPerSecond = photoUploadKibPerMinute * 1024 / 60
        quotas.addressPhotoUploadBurstBytes = addressPhotoUploadBurstKib * 1024
        quotas.addressPhotoUploadBytesPerSecond = addressPhotoUploadKibPerMinute * 1024 / 60
        quotas.unjoinedGuestLifetime = .milliseconds(Int64(unjoinedGuestHours * 3_600_000))
        // Checked hourly, or sooner for a short lifetime.
        quotas.guestPurgeInterval = min(.seconds(3600), quotas.unjoinedGuestLifetime)
        return quotas
    }
}
