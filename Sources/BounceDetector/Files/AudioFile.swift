/// Opens audio files by their content (magic bytes), not their name.
public enum AudioFile {
    /// Maps `path` read-only into memory and returns a source for WAV (RIFF/WAVE), Ogg Opus or ADTS AAC that
    /// parses and decodes straight from the mapped bytes.
    ///
    /// Nothing of the file is copied but its headers: the mapping's pages are file-backed, read in by the kernel
    /// as the source reaches them and dropped again under memory pressure, so a long recording does not need its
    /// size in memory (a 1-hour 48 kHz mono 16-bit WAV is 345 MB). The source keeps the mapping until it is
    /// released. Throws `io` naming the path when the file cannot be opened or mapped or is not a regular file,
    /// `truncated` ("the file is empty") for an empty file; as with any mapping, a file truncated by another process
    /// while it is read raises SIGBUS.
    public static func open(path: String) throws(AudioError) -> any AudioSource {
        try open(FileBytes(mapping: path))
    }

    /// A source over in-memory file bytes.
    public static func open(bytes: [UInt8]) throws(AudioError) -> any AudioSource {
        try open(FileBytes(bytes))
    }

    /// A source over the file's bytes in place, chosen by their first bytes.
    static func open(_ bytes: FileBytes) throws(AudioError) -> any AudioSource {
        if bytes.starts(with: "RIFF".utf8) || bytes.starts(with: "RF64".utf8) {
            return try WAVFile(bytes)
        }
        if bytes.starts(with: "OggS".utf8) { return try OggOpusFile(bytes) }
        if bytes.withUnsafeBytes({ raw in ADTSHeader.startsWithSync(raw) }) { return try ADTSFile(bytes) }
        if bytes.isEmpty { throw .truncated("the file is empty") }
        throw .unsupported("not a WAV, Ogg Opus or ADTS AAC file (unrecognised first bytes)")
    }
}
