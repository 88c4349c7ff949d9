import Foundation

/// Opens audio files by their content (magic bytes), not their name.
public enum AudioFile {
    /// Reads `path` and returns a source for WAV (RIFF/WAVE), Ogg Opus or ADTS AAC.
    public static func open(path: String) throws(AudioError) -> any AudioSource {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe))
        } catch {
            throw AudioError(.io, "cannot read \(path): \((error as NSError).localizedDescription)")
        }
        return try open(bytes: bytes)
    }

    /// A source over in-memory file bytes.
    public static func open(bytes: [UInt8]) throws(AudioError) -> any AudioSource {
        if bytes.starts(with: Array("RIFF".utf8)) || bytes.starts(with: Array("RF64".utf8)) {
            return try WAVFile(bytes: bytes)
        }
        if bytes.starts(with: Array("OggS".utf8)) { return try OggOpusFile(bytes: bytes) }
        if ADTSHeader.startsWithSync(bytes) { return try ADTSFile(bytes: bytes) }
        if bytes.isEmpty { throw .truncated("the file is empty") }
        throw .unsupported("not a WAV, Ogg Opus or ADTS AAC file (unrecognised first bytes)")
    }
}
