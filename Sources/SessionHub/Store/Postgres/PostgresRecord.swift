#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PongWire
import PostgresNIO

/// One result row, read by column name; a missing column or a value that does not fit its type throws
/// `.corruptData`, never traps. Names are as PostgreSQL reports them: unquoted identifiers in lower case.
struct PostgresRecord {
    private let row: PostgresRandomAccessRow

    init(_ row: PostgresRow) { self.row = row.makeRandomAccess() }

    /// The column's value as `Value` (an `Optional` reads NULL as nil).
    func value<Value: PostgresDecodable>(_ column: String, as _: Value.Type = Value.self) throws(StoreError) -> Value {
        let name = column.lowercased()
        guard row.contains(name) else { throw StoreError.corruptData.with(detail: "no column \(column)") }
        do {
            return try row[name].decode(Value.self)
        } catch {
            throw StoreError.corruptData.with(detail: "column \(column): \(error)")
        }
    }

    /// A BIGINT millisecond timestamp.
    func date(_ column: String) throws(StoreError) -> Date {
        StoreTime.date(milliseconds: try value(column, as: Int64.self))
    }

    /// A nullable BIGINT millisecond timestamp.
    func optionalDate(_ column: String) throws(StoreError) -> Date? {
        try value(column, as: Int64?.self).map(StoreTime.date(milliseconds:))
    }

    /// A raw-value enumeration stored as its raw value.
    func enumeration<Value: RawRepresentable>(_ column: String) throws(StoreError) -> Value
    where Value.RawValue: PostgresDecodable {
        let raw = try value(column, as: Value.RawValue.self)
        guard let result = Value(rawValue: raw) else {
            throw StoreError.corruptData.with(detail: "column \(column): unknown value \(raw)")
        }
        return result
    }

    /// A session code in canonical form.
    func sessionCode(_ column: String) throws(StoreError) -> SessionCode {
        let text = try value(column, as: String.self)
        guard let code = SessionCode(userInput: text), code.value == text else {
            throw StoreError.corruptData.with(detail: "column \(column): not a session code: \(text)")
        }
        return code
    }
}
