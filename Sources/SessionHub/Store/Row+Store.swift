#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import PongWire

// Reading record fields from rows; a value that does not fit its type throws `.corruptData`, never traps.
extension Row {
    /// The column's value as `Value`.
    func value<Value: DatabaseValueConvertible>(_ column: String) throws(StoreError) -> Value {
        do {
            return try decode(Value.self, forColumn: column)
        } catch {
            throw StoreError.corruptData.with(detail: "column \(column): \(error)")
        }
    }

    /// An INTEGER millisecond timestamp.
    func date(_ column: String) throws(StoreError) -> Date {
        StoreTime.date(milliseconds: try value(column) as Int64)
    }

    /// A nullable INTEGER millisecond timestamp.
    func optionalDate(_ column: String) throws(StoreError) -> Date? {
        let milliseconds: Int64? = try value(column)
        return milliseconds.map(StoreTime.date(milliseconds:))
    }

    /// A raw-value enumeration stored as its raw value.
    func enumeration<Value: RawRepresentable>(_ column: String) throws(StoreError) -> Value
    where Value.RawValue: DatabaseValueConvertible {
        let raw: Value.RawValue = try value(column)
        guard let result = Value(rawValue: raw) else {
            throw StoreError.corruptData.with(detail: "column \(column): unknown value \(raw)")
        }
        return result
    }

    /// A session code in canonical form.
    func sessionCode(_ column: String) throws(StoreError) -> SessionCode {
        let text: String = try value(column)
        guard let code = SessionCode(userInput: text), code.value == text else {
            throw StoreError.corruptData.with(detail: "column \(column): not a session code: \(text)")
        }
        return code
    }
}
