/// The labelled impacts of the audio file: times in seconds from the file's first sample.
///
/// Read from a CSV with a header, as `tools/gen_corpus.py` writes it (`time_s,type,gain_db`); a `time` column is
/// accepted too. Rows are sorted by time.
struct Labels: Hashable, Sendable {
    /// One labelled impact.
    struct Label: Hashable, Sendable {
        /// Seconds from the file's first sample.
        var time: Double
        /// The label's `type` (`bounce`, `hit`), or "" without that column.
        var type: String
    }

    /// All labels, by time.
    var labels: [Label]

    /// Labels from values (tests).
    init(_ labels: [Label]) { self.labels = labels.sorted { $0.time < $1.time } }

    /// Parses CSV text with a header row naming `time_s` (or `time`) and optionally `type`.
    init(csv text: String) throws(SimError) {
        var lines = text.split(whereSeparator: \.isNewline).map { $0.trimmed(of: " \t\r") }
        lines.removeAll { $0.isEmpty }
        guard let header = lines.first else { throw .badLabels("the labels file is empty") }
        let columns = header.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmed(of: " \"").lowercased()
        }
        guard let timeColumn = columns.firstIndex(of: "time_s") ?? columns.firstIndex(of: "time") else {
            throw .badLabels("the labels header has no time_s or time column: \(header)")
        }
        let typeColumn = columns.firstIndex(of: "type")
        var labels: [Label] = []
        for (number, line) in lines.dropFirst().enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmed(of: " \"")
            }
            guard timeColumn < fields.count, let time = Double(fields[timeColumn]) else {
                throw .badLabels("row \(number + 2) has no time: \(line)")
            }
            let type = typeColumn.flatMap { $0 < fields.count ? fields[$0] : nil } ?? ""
            labels.append(Label(time: time, type: type))
        }
        self.init(labels)
    }
}

extension StringProtocol {
    /// The text without the given characters at either end.
    func trimmed(of set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
