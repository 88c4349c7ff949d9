/// Opens audio files by their content (magic bytes), not their name.
public enum AudioFile {
    /// Maps `path` read-only into memory (`mmap`, `PROT_READ`, `MAP_PRIVATE`) and returns a source for WAV
    /// (RIFF/WAVE), Ogg Opus or ADTS AAC that parses and decodes straight from the mapped bytes.
    ///
    /// Nothing of the file is copied but its headers. The mapping's pages are file-backed: the kernel reads them in
    /// as the source reaches them, and the source gives them back every 2 MiB behind it, so about 2 MiB of the file
    /// is resident at a time whatever its length (a 1-hour 48 kHz mono 16-bit WAV is 345 MB; `pongd detect` on a
    /// 57.6 MB one peaks at 42 MB, the process's own 40 MB included: BENCHMARKS.md). The source keeps the mapping until it
    /// is released. Throws `io` naming the path when the file cannot be opened or mapped or is not a regular file,
    /// and `truncated` ("the file is empty") for an empty file. As with any mapping, a file that another process
    /// truncates while it is read raises SIGBUS.
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
